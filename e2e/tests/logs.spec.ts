import type { APIRequestContext } from '@playwright/test'
import { UPSTREAM_KEY } from '../constants.ts'
import { captureScreen, expect, heading, ROOT_SESSION, signIn, test, upstreamUrl } from '../support.ts'

test.use({ storageState: ROOT_SESSION })

// A model no other browser test calls and a token of its own: the tests share one gateway, and
// this one counts rows, so every view and total is filtered by both.
const MODEL = 'gpt-3.5-turbo-0125'
const TOKEN = 'e2e-logs'
const FILTERS = `model_name=${MODEL}&token_name=${TOKEN}`

/** A channel to the fake upstream and a token of root's, made through the management API. */
async function tokenKey(request: APIRequestContext): Promise<string> {
  const channel = await request.post('/api/channel/', {
    data: { type: 50, name: 'e2e-logs', key: UPSTREAM_KEY, base_url: `${upstreamUrl()}/v1`, models: [MODEL] },
  })
  expect((await channel.json()).success).toBe(true)
  const created = await request.post('/api/token/', {
    data: { name: TOKEN, remain_quota: 0, expired_time: -1, unlimited_quota: true },
  })
  expect((await created.json()).success).toBe(true)
  const tokens = (await (await request.get(`/api/token/search?keyword=${TOKEN}`)).json()).data as {
    key: string
  }[]
  const key = tokens[0].key
  return key.startsWith('sk-') ? key : `sk-${key}`
}

test('relay requests appear in the log page; filters narrow them and the total is revealed', async ({
  page,
  request,
}) => {
  const key = await tokenKey(request)
  for (let index = 0; index < 3; index++) {
    const reply = await request.post('/v1/chat/completions', {
      headers: { Authorization: `Bearer ${key}` },
      data: { model: MODEL, messages: [{ role: 'user', content: `hello number ${index}` }] },
    })
    expect(reply.status()).toBe(200)
  }
  // The log writer batches its inserts: the rows arrive within a few seconds.
  await expect(async () => {
    await page.goto(`/log?${FILTERS}&type=2`)
    await expect(page.getByRole('row').filter({ hasText: MODEL })).toHaveCount(3, { timeout: 2000 })
  }).toPass({ timeout: 30_000 })
  await expect(heading(page, 'Usage logs')).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Model name' })).toHaveValue(MODEL)
  await expect(page.getByRole('textbox', { name: 'Token name' })).toHaveValue(TOKEN)
  const first = page.getByRole('row').filter({ hasText: MODEL }).first()
  await expect(first.getByText('Consumption')).toBeVisible()
  await expect(first.getByText(TOKEN)).toBeVisible()
  await expect(first.getByText(/Request ID/)).toBeVisible()

  const stat = await (await request.get(`/api/log/stat?type=2&${FILTERS}`)).json()
  expect(stat.data.quota).toBeGreaterThan(0)
  await page.getByRole('button', { name: 'Click to show the total' }).click()
  // Dollars with two decimals while the status says to show currency (the default), else quota.
  await expect(page.getByText(/^Total consumed: (\$\d+\.\d\d|[1-9][\d.]*[kMB]?)$/)).toBeVisible()
  await captureScreen(page, 'log-list')

  await page.getByRole('textbox', { name: 'Model name' }).fill('no-such-model')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/model_name=no-such-model/)
  await expect(page.getByText('No logs match the filters')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Click to show the total' })).toBeVisible()
  await page.goBack()
  await expect(page.getByRole('row').filter({ hasText: MODEL })).toHaveCount(3)

  await page.getByRole('combobox', { name: 'Type' }).click()
  await page.getByRole('option', { name: 'Top-up' }).click()
  await expect(page).toHaveURL(/type=1/)
  await expect(page.getByText('No logs match the filters')).toBeVisible()
})

test('the administrator narrows by user and channel; the detail shows the elapsed time', async ({
  page,
  request,
}) => {
  const channel = (await (await request.get('/api/channel/search?keyword=e2e-logs')).json()).data[0].id
  const rows = page.getByRole('row').filter({ hasText: MODEL })
  await page.goto(`/log?${FILTERS}&type=2`)
  await expect(rows).toHaveCount(3)
  await expect(rows.first().getByText(/^Elapsed \d+\.\d\d s/)).toBeVisible()

  const apply = async (label: string, value: string) => {
    await page.getByRole('textbox', { name: label }).fill(value)
    await page.getByRole('button', { name: 'Search' }).click()
  }
  await apply('Username', 'root')
  await expect(page).toHaveURL(/username=root/)
  await expect(rows).toHaveCount(3)
  await apply('Channel ID', String(channel + 1000))
  await expect(page.getByText('No logs match the filters')).toBeVisible()
  await apply('Channel ID', String(channel))
  await expect(page).toHaveURL(new RegExp(`channel=${channel}`))
  await expect(rows).toHaveCount(3)
  await apply('Username', 'e2e-nobody')
  await expect(page.getByText('No logs match the filters')).toBeVisible()

  // With currency display off, quota is shown as quota (abbreviated from 10,000), not dollars.
  const setCurrency = (value: string) =>
    request.put('/api/option/', { data: { key: 'DisplayInCurrencyEnabled', value } })
  expect((await (await setCurrency('false')).json()).success).toBe(true)
  try {
    await page.goto(`/log?${FILTERS}&type=2`)
    await expect(rows).toHaveCount(3)
    await expect(rows.first().getByRole('cell', { name: /^\d+(\.\d)?[kMB]?$/ })).not.toHaveCount(0)
    await expect(rows.first()).not.toContainText('$')
    await page.getByRole('button', { name: 'Click to show the total' }).click()
    await expect(page.getByText(/^Total consumed: [1-9][\d.]*[kMB]?$/)).toBeVisible()
  } finally {
    await setCurrency('true')
  }
})

test("a user's log page shows only their logs, without the channel and user filters or columns", async ({
  page,
  browser,
}) => {
  const username = `log${Date.now() % 1_000_000}`
  const password = `${username}-Pass1`
  const created = await (await page.request.post('/api/user/', { data: { username, password } })).json()
  expect(created.success, created.message).toBe(true)
  // Root's change of the user's quota writes a management log of the user's own.
  const found = await (await page.request.get(`/api/user/search?keyword=${username}`)).json()
  const id = found.data[0].id
  const updated = await (await page.request.put('/api/user/', { data: { id, username, quota: 1234 } })).json()
  expect(updated.success, updated.message).toBe(true)
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, locale: 'en-US' })
  const userPage = await context.newPage()
  await signIn(userPage, username, password)
  await userPage.goto(`/log?${FILTERS}`)
  await expect(heading(userPage, 'Usage logs')).toBeVisible()
  await expect(userPage.getByText('No logs match the filters')).toBeVisible()
  await expect(userPage.getByRole('textbox', { name: 'Token name' })).toBeVisible()
  await expect(userPage.getByRole('textbox', { name: 'Username' })).toHaveCount(0)
  await expect(userPage.getByRole('textbox', { name: 'Channel ID' })).toHaveCount(0)
  await userPage.getByRole('button', { name: 'Click to show the total' }).click()
  await expect(userPage.getByText(/^Total consumed: (\$0\.00|0)$/)).toBeVisible()
  await userPage.goto('/log')
  const own = userPage.getByRole('row').filter({ hasText: 'Administrator changed the user quota' })
  await expect(async () => {
    await userPage.reload()
    await expect(own).toHaveCount(1, { timeout: 2000 })
  }).toPass({ timeout: 30_000 })
  await expect(own.getByText('Management')).toBeVisible()
  await expect(userPage.getByRole('row').filter({ hasText: MODEL })).toHaveCount(0)
  await expect(userPage.getByRole('columnheader', { name: 'Token' })).toBeVisible()
  await expect(userPage.getByRole('columnheader', { name: 'Channel' })).toHaveCount(0)
  await expect(userPage.getByRole('columnheader', { name: 'User', exact: true })).toHaveCount(0)
  await context.close()
})
