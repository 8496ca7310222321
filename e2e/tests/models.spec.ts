import type { Page } from '@playwright/test'
import {
  captureScreen,
  expect,
  heading,
  menuLink,
  ROOT_SESSION,
  signIn,
  test,
  UPSTREAM_KEY,
  upstreamUrl,
} from '../support.ts'

test.use({ storageState: ROOT_SESSION })
// The screens are photographed at two sizes and two schemes, with axe checks: slow on a busy machine.
test.describe.configure({ mode: 'serial', timeout: 360_000 })

const MODEL = 'e2e-models-chat'
const CHANNEL = 'e2e-models-channel'

/** Prices the test's model at $3 / $15 per 1M tokens (ratio 1.5, completion 5), keeping other prices. */
async function priceModel(page: Page) {
  const options = (await (await page.request.get('/api/option/')).json()).data as {
    key: string
    value: string
  }[]
  const table = (key: string) => JSON.parse(options.find((entry) => entry.key === key)?.value ?? '{}')
  const models = { ...table('ModelRatio'), [MODEL]: 1.5 }
  const completions = { ...table('CompletionRatio'), [MODEL]: 5 }
  for (const [key, value] of [
    ['ModelRatio', models],
    ['CompletionRatio', completions],
  ] as const) {
    const reply = await page.request.put('/api/option/', { data: { key, value: JSON.stringify(value) } })
    expect((await reply.json()).success).toBe(true)
  }
}

test('a user finds a model and its price', async ({ page, browser }) => {
  const channel = await page.request.post('/api/channel/', {
    data: {
      type: 1,
      name: CHANNEL,
      key: UPSTREAM_KEY,
      base_url: upstreamUrl(),
      models: `${MODEL},dall-e-3`,
      group: 'default',
    },
  })
  expect((await channel.json()).success).toBe(true)
  await priceModel(page)

  const username = `mdl${Date.now() % 1_000_000}`
  const password = `${username}-Pass1`
  expect(
    (await (await page.request.post('/api/user/', { data: { username, password } })).json()).success,
  ).toBe(true)
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, locale: 'en-US' })
  const userPage = await context.newPage()
  await signIn(userPage, username, password)
  await menuLink(userPage, 'Models').click()
  await expect(heading(userPage, 'Models and prices')).toBeVisible()
  await userPage.getByLabel('Search models').fill('e2e-models')
  await userPage.getByLabel('Search models').press('Enter')
  const row = userPage.getByRole('row').filter({ hasText: MODEL })
  await expect(row).toContainText('$3')
  await expect(row).toContainText('$15')
  await expect(row).toContainText('$1.5')
  await expect(userPage.getByRole('columnheader', { name: 'Channels' })).toHaveCount(0)
  await userPage.getByLabel('Search models').fill('')
  await userPage.getByLabel('Search models').press('Enter')
  await expect(userPage.getByRole('row').filter({ hasText: 'dall-e-3' })).toContainText('/ image')
  // The pointer would rest on the menu link just clicked, whose hover colour is not the one measured.
  await userPage.mouse.move(640, 700)
  await captureScreen(userPage, 'models-user')
  await context.close()
})

test('root sees which channels serve each model and sorts by price', async ({ page }) => {
  await page.goto('/models?keyword=e2e-models')
  const adminRow = page.getByRole('row').filter({ hasText: MODEL })
  await expect(adminRow.getByRole('link', { name: new RegExp(CHANNEL) })).toBeVisible()
  await page.getByRole('button', { name: 'Input', exact: true }).click()
  await expect(page).toHaveURL(/sort=input/)
  await captureScreen(page, 'models-admin')
})
