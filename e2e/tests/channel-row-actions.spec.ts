import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { dismissNotices, expect, ROOT_SESSION, test, UPSTREAM_KEY, upstreamUrl } from '../support.ts'

test.use({ storageState: ROOT_SESSION })
test.describe.configure({ mode: 'serial' })

// Names no other spec uses; both channels are deleted through the list at the end, since the
// channel spec that follows expects an empty list.
const CHAT = 'e2e-row-chat'
const BILLED = 'e2e-row-billed'

/** An OpenAI-style billing endpoint: $120 granted, 2,050 cents used, so $99.50 left. */
let billing: Server
test.beforeAll(async () => {
  billing = createServer((request, response) => {
    response.setHeader('content-type', 'application/json')
    if (request.url?.startsWith('/v1/dashboard/billing/subscription'))
      response.end(JSON.stringify({ hard_limit_usd: 120, has_payment_method: true }))
    else if (request.url?.startsWith('/v1/dashboard/billing/usage'))
      response.end(JSON.stringify({ total_usage: 2050 }))
    else {
      response.statusCode = 404
      response.end('{}')
    }
  })
  await new Promise<void>((resolve) => billing.listen(0, '127.0.0.1', resolve))
})
test.afterAll(() => billing?.close())

async function createChannel(page: Page, data: Record<string, unknown>) {
  const body = await (await page.request.post('/api/channel/', { data })).json()
  expect(body.success, body.message).toBe(true)
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name })

test('a row tests the model picked in its dropdown, and a balance refreshes on a click', async ({ page }) => {
  await page.goto('/channel')
  await createChannel(page, {
    type: 50,
    name: CHAT,
    key: UPSTREAM_KEY,
    base_url: `${upstreamUrl()}/v1`,
    models: ['gpt-4o-mini', 'gpt-4o'],
  })
  const port = (billing.address() as AddressInfo).port
  await createChannel(page, {
    type: 8,
    name: BILLED,
    key: 'sk-billed',
    base_url: `http://127.0.0.1:${port}`,
    models: ['gpt-4o-mini'],
  })
  await page.goto('/channel?keyword=e2e-row')
  await expect(row(page, 'e2e-row')).toHaveCount(2)

  await page.getByRole('combobox', { name: `Test model of ${CHAT}` }).click()
  await page.getByRole('option', { name: 'gpt-4o', exact: true }).click()
  await page.getByRole('button', { name: `Test ${CHAT}` }).click()
  await expect(
    page.getByText(new RegExp(`Channel ${CHAT} answered with gpt-4o in \\d+\\.\\d\\d s`)),
  ).toBeVisible()
  await dismissNotices(page)

  await expect(row(page, BILLED).getByText('$0.00')).toBeVisible()
  await page.getByRole('button', { name: `Refresh the balance of ${BILLED}` }).click()
  await expect(page.getByText(`Balance of ${BILLED} updated: $99.50`)).toBeVisible()
  await expect(row(page, BILLED).getByText('$99.50')).toBeVisible()
  await dismissNotices(page)
  await page.getByRole('button', { name: `Refresh the balance of ${CHAT}` }).click()
  await expect(page.getByText('not supported', { exact: true })).toBeVisible()
  await dismissNotices(page)
})

test('the footer starts a test of all channels and of the disabled ones', async ({ page }) => {
  await page.goto('/channel?keyword=e2e-row')
  for (const label of ['Test all channels', 'Test disabled channels']) {
    await page.getByRole('button', { name: label }).click()
    await expect(page.getByText('Test started successfully, refresh the page to view results')).toBeVisible()
    await dismissNotices(page)
  }
})

test('on a phone the rows are cards with their actions', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/channel?keyword=e2e-row')
  const cards = page.getByRole('list', { name: 'Channels' }).getByRole('listitem')
  await expect(cards).toHaveCount(2)
  await expect(page.getByRole('columnheader')).toHaveCount(0)
  await expect(cards.filter({ hasText: BILLED }).getByText('$99.50')).toBeVisible()
  await expect(
    cards.filter({ hasText: BILLED }).getByRole('button', { name: `Delete ${BILLED}` }),
  ).toBeVisible()
})

test('a row is deleted after its confirmation, and only then', async ({ page }) => {
  await page.goto('/channel?keyword=e2e-row')
  for (const name of [CHAT, BILLED]) {
    await page.getByRole('button', { name: `Delete ${name}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
    await expect(row(page, name)).toHaveCount(1)
    await page.getByRole('button', { name: `Delete ${name}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('Channel deleted')).toBeVisible()
    await expect(row(page, name)).toHaveCount(0)
    await dismissNotices(page)
  }
})
