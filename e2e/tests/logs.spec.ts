import type { APIRequestContext } from '@playwright/test'
import { UPSTREAM_KEY } from '../constants.ts'
import { captureScreen, expect, heading, ROOT_SESSION, test, upstreamUrl } from '../support.ts'

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
