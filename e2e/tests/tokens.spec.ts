import { captureScreen, expect, heading, ROOT_SESSION, test, UPSTREAM_KEY, upstreamUrl } from '../support.ts'

const MODEL = 'gpt-4o-mini'
test.use({ storageState: ROOT_SESSION })

test('a token with a model scope and an expiry is created, its copied key works through the relay, and it is listed', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const channel = await page.request.post('/api/channel/', {
    data: {
      type: 1,
      name: 'e2e-tokens',
      key: UPSTREAM_KEY,
      base_url: upstreamUrl(),
      models: MODEL,
      group: 'default',
    },
  })
  expect((await channel.json()).success).toBe(true)

  await page.goto('/token')
  await expect(heading(page, 'Tokens')).toBeVisible()
  await page.getByRole('link', { name: 'Add token' }).click()
  await expect(heading(page, 'Add a token')).toBeVisible()
  await page.getByLabel(/^Name/).fill('e2e-scoped')
  await page.getByRole('combobox', { name: 'Model scope' }).click()
  await page.getByRole('option', { name: MODEL }).click()
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'One month' }).click()
  await captureScreen(page, 'token-form-add')
  await page.getByRole('button', { name: 'Submit' }).click()

  await expect(page).toHaveURL(/\/token$/)
  const row = page.getByRole('row').filter({ hasText: 'e2e-scoped' })
  await expect(row).toContainText('Enabled')
  await row.getByRole('button', { name: 'Copy the key of e2e-scoped' }).click()
  const key = await page.evaluate(() => navigator.clipboard.readText())
  expect(key).toMatch(/^sk-[A-Za-z0-9]{20,}$/)

  const reply = await page.request.post('/v1/chat/completions', {
    headers: { Authorization: `Bearer ${key}` },
    data: { model: MODEL, messages: [{ role: 'user', content: 'hello' }] },
  })
  expect(reply.status()).toBe(200)
  const outside = await page.request.post('/v1/chat/completions', {
    headers: { Authorization: `Bearer ${key}` },
    data: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] },
  })
  expect(outside.status(), 'a model outside the scope is refused').not.toBe(200)

  await page.getByRole('button', { name: 'Refresh' }).click()
  await expect(row).not.toContainText('Never')
  await captureScreen(page, 'token-list')
})
