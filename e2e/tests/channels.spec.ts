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
// One administrator's afternoon: each step works on the channels the previous ones made.
test.describe.configure({ mode: 'serial' })

const NAME = 'e2e-compatible'

async function chooseType(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Type' }).click()
  await page.getByRole('option', { name: label, exact: true }).click()
}

async function search(page: Page, keyword: string) {
  await page.getByRole('textbox', { name: 'Search channels' }).fill(keyword)
  await page.getByRole('textbox', { name: 'Search channels' }).press('Enter')
  await expect(page).toHaveURL(new RegExp(`keyword=${keyword}`))
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name })

/** A row's cell under the column headed `header` (a value such as "5" may also be the row's ID). */
async function cellUnder(page: Page, name: string, header: string) {
  await expect(row(page, name)).toHaveCount(1)
  const headers = (await page.getByRole('columnheader').allInnerTexts()).map((text) => text.trim())
  expect(headers).toContain(header)
  return row(page, name).getByRole('cell').nth(headers.indexOf(header))
}

test('the channel list says once how balances and tests work', async ({ page }) => {
  await page.goto('/channel')
  await expect(heading(page, 'Channels')).toBeVisible()
  await expect(page.getByText('No channels yet')).toBeVisible()
  await captureScreen(page, 'channel-list-empty')
  await page.getByRole('button', { name: 'Do not show again' }).click()
  await expect(page.getByText('About balances and tests')).toBeHidden()
  await page.reload()
  await expect(heading(page, 'Channels')).toBeVisible()
  await expect(page.getByText('About balances and tests')).toBeHidden()
})

test('an OpenAI-compatible channel made through the form appears in the list', async ({ page }) => {
  await page.goto('/channel')
  await page.getByRole('link', { name: 'Add channel' }).click()
  await expect(heading(page, 'Add a channel')).toBeVisible()
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByText('please fill in channel name and channel key')).toBeVisible()
  await chooseType(page, 'OpenAI Compatible')
  await page.getByRole('textbox', { name: 'Base URL' }).fill(`${upstreamUrl()}/v1`)
  await page.getByRole('textbox', { name: 'Name' }).fill(NAME)
  await page.getByRole('textbox', { name: 'Key' }).fill(UPSTREAM_KEY)
  await page.getByRole('combobox', { name: 'Models' }).fill('gpt-4o-mini')
  await page.getByRole('combobox', { name: 'Models' }).press('Enter')
  await page.getByRole('combobox', { name: 'Models' }).press('Escape')
  await captureScreen(page, 'channel-form-add')
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByText('Created 1 channel(s)')).toBeVisible()
  await expect(page).toHaveURL(/\/channel$/)
  await search(page, NAME)
  await expect(row(page, NAME)).toHaveCount(1)
  await expect(row(page, NAME).getByText('OpenAI Compatible')).toBeVisible()
  await expect(row(page, NAME).getByText('Enabled')).toBeVisible()
  await expect(row(page, NAME).getByText('Not tested')).toBeVisible()
})

test('editing never shows the key, and keeps it when left empty', async ({ page }) => {
  await page.goto(`/channel?keyword=${NAME}`)
  await page.getByRole('link', { name: `Edit ${NAME}` }).click()
  await expect(heading(page, /^Edit channel #\d+$/)).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(NAME)
  await expect(page.getByRole('textbox', { name: 'Key' })).toHaveValue('')
  await page.getByRole('textbox', { name: 'Priority' }).fill('5')
  await captureScreen(page, 'channel-form-edit')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Channel updated')).toBeVisible()
  await page.goto(`/channel?keyword=${NAME}`)
  await expect(await cellUnder(page, NAME, 'Priority')).toHaveText('5')
})

test('testing the channel shows its response time; it can be disabled and enabled', async ({ page }) => {
  await page.goto(`/channel?keyword=${NAME}`)
  await page.getByRole('button', { name: `Test ${NAME}` }).click()
  await expect(
    page.getByText(new RegExp(`Channel ${NAME} answered with gpt-4o-mini in \\d+\\.\\d\\d s`)),
  ).toBeVisible()
  await expect(row(page, NAME).getByText(/^\d+\.\d\d s$/)).toBeVisible()
  await dismissNotices(page)
  await page.getByRole('button', { name: `Disable ${NAME}` }).click()
  await expect(row(page, NAME).getByText('Disabled', { exact: true })).toBeVisible()
  await dismissNotices(page)
  await page.getByRole('button', { name: `Enable ${NAME}` }).click()
  await expect(row(page, NAME).getByText('Enabled', { exact: true })).toBeVisible()
  await captureScreen(page, 'channel-list')
})

test('three keys make three channels; the disabled ones are deleted together', async ({ page }) => {
  await page.goto('/channel/add')
  await chooseType(page, 'OpenAI Compatible')
  await page.getByRole('textbox', { name: 'Base URL' }).fill(`${upstreamUrl()}/v1`)
  await page.getByRole('textbox', { name: 'Name' }).fill('e2e-batch')
  await page.getByRole('checkbox', { name: /Batch create/ }).check()
  await page.getByRole('textbox', { name: 'Key' }).fill('sk-batch-1\nsk-batch-2\nsk-batch-3')
  await page.getByRole('combobox', { name: 'Models' }).fill('gpt-4o-mini')
  await page.getByRole('combobox', { name: 'Models' }).press('Enter')
  await page.getByRole('combobox', { name: 'Models' }).press('Escape')
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByText('Created 3 channel(s)')).toBeVisible()
  await search(page, 'e2e-batch')
  await expect(row(page, 'e2e-batch')).toHaveCount(3)
  for (let index = 0; index < 2; index++) {
    await row(page, 'e2e-batch').getByRole('button', { name: 'Disable e2e-batch' }).first().click()
    await expect(row(page, 'e2e-batch').getByText('Disabled', { exact: true })).toHaveCount(index + 1)
  }
  await page.getByRole('button', { name: 'Delete disabled channels' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete disabled channels' }).click()
  await expect(page.getByText('Deleted 2 disabled channel(s)')).toBeVisible()
  await expect(row(page, 'e2e-batch')).toHaveCount(1)
  await page.goto('/channel?sort=name&order=desc')
  await expect(page.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending')
  await expect(page.getByRole('row').nth(1)).toContainText('e2e-compatible')
})
