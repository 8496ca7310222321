import type { Page } from '@playwright/test'
import { UPSTREAM_KEY } from '../constants.ts'
import {
  captureScreen,
  dismissNotices,
  expect,
  heading,
  ROOT_SESSION,
  test,
  upstreamUrl,
} from '../support.ts'

test.use({ storageState: ROOT_SESSION })
test.describe.configure({ mode: 'serial' })

// Credentials the mock upstream signs AWS requests with (SigV4 recomputed, a wrong secret refused).
const AWS_ACCESS_KEY = 'AKIAMOCKUPSTREAM0001'
const AWS_SECRET_KEY = 'mock/upstream/secret/0001'

const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name })

async function startChannel(page: Page, type: string, name: string, model: string) {
  await page.goto('/channel/add')
  await expect(heading(page, 'Add a channel')).toBeVisible()
  await page.getByRole('combobox', { name: 'Type' }).click()
  await page.getByRole('option', { name: type, exact: true }).click()
  await page.getByRole('textbox', { name: 'Name' }).fill(name)
  await page.getByRole('textbox', { name: 'Proxy base URL' }).fill(upstreamUrl())
  await page.getByRole('combobox', { name: 'Models' }).fill(model)
  await page.getByRole('combobox', { name: 'Models' }).press('Enter')
  await page.getByRole('combobox', { name: 'Models' }).press('Escape')
}

async function createAndTest(page: Page, name: string, model: string) {
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByText('Created 1 channel(s)')).toBeVisible()
  await page.goto(`/channel?keyword=${name}`)
  await dismissNotices(page)
  await page.getByRole('button', { name: `Test ${name}` }).click()
  await expect(
    page.getByText(new RegExp(`Channel ${name} answered with ${model} in \\d+\\.\\d\\d s`)),
  ).toBeVisible()
  await expect(row(page, name).getByText(/^\d+\.\d\d s$/)).toBeVisible()
}

/**
 * Deletes the spec's channel through the API: the channels spec, which runs after this one in the
 * same database, starts from an empty channel list.
 */
async function deleteChannel(page: Page, name: string) {
  const found = await (await page.request.get(`/api/channel/search?keyword=${name}`)).json()
  const channels = found.data as { id: number; name: string }[]
  for (const channel of channels.filter((item) => item.name === name)) {
    const deleted = await (await page.request.delete(`/api/channel/${channel.id}`)).json()
    expect(deleted.success, deleted.message).toBe(true)
  }
}

test('a Gemini channel made through the form answers the Test button', async ({ page }) => {
  const name = `e2e-gemini-${Date.now() % 100_000}`
  await startChannel(page, 'Google Gemini', name, 'gemini-2.0-flash')
  await page.getByRole('textbox', { name: 'Key' }).fill(UPSTREAM_KEY)
  await captureScreen(page, 'channel-form-gemini')
  await createAndTest(page, name, 'gemini-2.0-flash')
  await deleteChannel(page, name)
})

test('an AWS Bedrock channel made from region, AK and SK answers the Test button', async ({ page }) => {
  const name = `e2e-bedrock-${Date.now() % 100_000}`
  await startChannel(page, 'AWS Bedrock', name, 'anthropic.claude-e2e')
  await page.getByRole('textbox', { name: 'Region' }).fill('us-east-1')
  await page.getByRole('textbox', { name: 'Access key (AK)' }).fill(AWS_ACCESS_KEY)
  await page.getByRole('textbox', { name: 'Secret key (SK)' }).fill(AWS_SECRET_KEY)
  await captureScreen(page, 'channel-form-bedrock')
  await createAndTest(page, name, 'anthropic.claude-e2e')
  await captureScreen(page, 'channel-list-native-types')
  await deleteChannel(page, name)
})
