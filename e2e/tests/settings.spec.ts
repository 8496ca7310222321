import type { Browser, Page } from '@playwright/test'
import { captureScreen, expect, expectAccessible, heading, ROOT_SESSION, signIn, test } from '../support.ts'

test.use({ storageState: ROOT_SESSION })
// Each test photographs its screens at two sizes and two schemes, with axe checks: slow on a busy machine.
test.describe.configure({ mode: 'serial', timeout: 360_000 })

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true })

async function openTab(page: Page, tab: string) {
  await page.goto('/setting')
  await page.getByRole('tab', { name: tab }).click()
  await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true')
}

async function storedOption(page: Page, key: string): Promise<string | undefined> {
  const reply = await (await page.request.get('/api/option/')).json()
  return (reply.data as { key: string; value: string }[]).find((entry) => entry.key === key)?.value
}

/** A normal user made by root through the API, signed in in a browser context of its own. */
async function newUserPage(browser: Browser, page: Page, username: string) {
  const password = `${username}-Pass1`
  const created = await page.request.post('/api/user/', { data: { username, password } })
  expect((await created.json()).success).toBe(true)
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, locale: 'en-US' })
  const userPage = await context.newPage()
  await signIn(userPage, username, password)
  return { userPage, password, context }
}

test('the personal tab shows the profile, redemption, bindings, access token, invite link and account deletion', async ({
  page,
}) => {
  await page.goto('/setting')
  await expect(heading(page, 'Settings')).toBeVisible()
  await expect(section(page, 'Redeem a code').getByLabel('Redemption code')).toBeVisible()
  await expect(section(page, 'Bound accounts')).toContainText('Not bound')
  await expect(section(page, 'Delete account')).toContainText('cannot be deleted')
  await expect(
    section(page, 'Delete account').getByRole('button', { name: 'Delete my account' }),
  ).toBeDisabled()
  await captureScreen(page, 'settings-personal')
})

test('root changes operation options; prices typed in dollars become the ratios, and JSON errors sit on the field', async ({
  page,
}) => {
  await openTab(page, 'Operation settings')
  const threshold = String(1000 + (Date.now() % 9000))
  const quota = section(page, 'Quota')
  await quota.getByLabel('Low-quota reminder threshold').fill(threshold)
  await quota.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved').first()).toBeVisible()
  await page.reload()
  await expect(section(page, 'Quota').getByLabel('Low-quota reminder threshold')).toHaveValue(threshold)

  const ratios = section(page, 'Prices and ratios')
  await ratios.getByLabel('New model name').fill('e2e-settings-model')
  await ratios.getByRole('button', { name: 'Add model' }).click()
  await ratios.getByLabel('Input price of e2e-settings-model', { exact: true }).fill('0.15')
  await ratios.getByLabel('Output price of e2e-settings-model', { exact: true }).fill('0.6')
  await expect(ratios.getByLabel('Cached input price of e2e-settings-model')).toHaveText('$0.075')
  await ratios.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved').first()).toBeVisible()
  await expect
    .poll(async () => JSON.parse((await storedOption(page, 'ModelRatio')) ?? '{}')['e2e-settings-model'])
    .toBe(0.075)
  expect(JSON.parse((await storedOption(page, 'CompletionRatio')) ?? '{}')['e2e-settings-model']).toBe(4)

  await page.reload()
  const reloaded = section(page, 'Prices and ratios')
  await reloaded.getByLabel('Search models').fill('e2e-settings')
  await expect(reloaded.getByLabel('Input price of e2e-settings-model', { exact: true })).toHaveValue('0.15')
  await expect(reloaded.getByLabel('Output price of e2e-settings-model', { exact: true })).toHaveValue('0.6')
  await captureScreen(page, 'settings-operation')

  await reloaded.getByText('Ratios (JSON)').click()
  await reloaded.getByLabel('Group ratios').fill('{"default": 1,')
  await reloaded.getByRole('button', { name: 'Save' }).click()
  await expect(reloaded.getByText('group ratio is not valid JSON')).toBeVisible()
  await captureScreen(page, 'settings-operation-json-error')
  await page.reload()

  const cleanup = section(page, 'Log clean-up')
  const target = await cleanup.getByLabel('Delete entries before').inputValue()
  const daysAgo = (Date.now() - new Date(target).getTime()) / 86_400_000
  expect(Math.round(daysAgo)).toBe(30)
  await cleanup.getByRole('button', { name: 'Delete old entries' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete old entries' }).click()
  await expect(cleanup.getByRole('status')).toHaveText(/\d+ log entries removed/)
})

test('root changes system options: addresses lose their trailing slash, secrets are never shown back', async ({
  page,
  baseURL,
}) => {
  await openTab(page, 'System settings')
  const server = section(page, 'Server')
  await server.getByLabel('Server address').fill(`${baseURL}/`)
  await server.getByRole('button', { name: 'Save' }).click()
  // Without its slash the address may be the one stored already: then nothing is sent.
  await expect(page.getByText(/Settings saved|Nothing has changed/).first()).toBeVisible()

  const smtp = section(page, 'SMTP')
  await expect(smtp.getByRole('button', { name: 'Send a test mail' })).toBeVisible()
  await smtp.getByLabel('SMTP server').fill('smtp.e2e.example')
  await smtp.getByLabel('SMTP password or token').fill('e2e-smtp-secret')
  await smtp.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved').first()).toBeVisible()

  const whitelist = section(page, 'Email domain whitelist')
  await whitelist.getByLabel('Domain to add').fill('e2e-settings.example')
  await whitelist.getByRole('button', { name: 'Add' }).click()
  await whitelist.getByLabel('Domain to add').fill('E2E-settings.example')
  await whitelist.getByRole('button', { name: 'Add' }).click()
  await expect(whitelist.getByText('e2e-settings.example')).toHaveCount(1)
  await whitelist.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved').first()).toBeVisible()

  await page.reload()
  await expect(section(page, 'Server').getByLabel('Server address')).toHaveValue(String(baseURL))
  await expect(section(page, 'SMTP').getByLabel('SMTP server')).toHaveValue('smtp.e2e.example')
  await expect(section(page, 'SMTP').getByLabel('SMTP password or token')).toHaveValue('')
  await expect(section(page, 'Email domain whitelist').getByText('e2e-settings.example')).toBeVisible()
  const listed = JSON.stringify(await (await page.request.get('/api/option/')).json())
  expect(listed).not.toContain('e2e-smtp-secret')

  // Turning password sign-in off asks first; cancelling keeps it on (the other tests sign in with it).
  const signInSwitches = section(page, 'Sign-in and registration')
  await signInSwitches.getByRole('switch', { name: 'Sign-in with password' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText('will no longer be able to sign in with their password')
  await expectAccessible(page, 'password sign-in confirmation')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(signInSwitches.getByRole('switch', { name: 'Sign-in with password' })).toBeChecked()
  expect(await storedOption(page, 'PasswordLoginEnabled')).toBe('true')
  await captureScreen(page, 'settings-system')
})

test('root writes the About text with a sanitised preview; the update check stays quiet offline', async ({
  page,
  pageErrors,
}) => {
  await openTab(page, 'Other settings')
  const content = section(page, 'Notice, about, home page and footer')
  const about = `**e2e about ${Date.now()}** <img src="x" alt="e2e" onerror="window.e2eHacked = 1">`
  await content.getByRole('textbox', { name: 'About', exact: true }).fill(about)
  await content.getByRole('tab', { name: 'Preview' }).nth(1).click()
  await expect(content.getByTestId('preview-About').locator('strong')).toContainText('e2e about')
  await expect(content.getByTestId('preview-About').locator('img')).not.toHaveAttribute('onerror')
  await content.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings saved').first()).toBeVisible()
  expect(await page.evaluate(() => (window as { e2eHacked?: number }).e2eHacked)).toBeUndefined()
  await page.reload()
  await expect(
    section(page, 'Notice, about, home page and footer').getByRole('textbox', { name: 'About', exact: true }),
  ).toHaveValue(about)

  // Tests send nothing beyond this machine: the release endpoint is unreachable, as on an
  // offline server, and the check must stay quiet about it.
  await page.route(/^https:\/\/api\.github\.com\//, (route) => route.abort('internetdisconnected'))
  const updates = section(page, 'Updates')
  await updates.getByRole('button', { name: 'Check for updates' }).click()
  await expect(updates.getByText(/could not be reached/)).toBeVisible({ timeout: 20_000 })
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0)
  expect(pageErrors).toEqual([])
  await captureScreen(page, 'settings-other')
  // The home page shows the About text: the other specs expect the default one.
  const restored = await page.request.put('/api/option/', { data: { key: 'About', value: '' } })
  expect((await restored.json()).success).toBe(true)
})

test('a user edits their profile and deletes their own account after typing the username', async ({
  page,
  browser,
}) => {
  const username = `del${Date.now() % 1_000_000}`
  const { userPage, password, context } = await newUserPage(browser, page, username)
  await userPage.goto('/setting')
  await expect(userPage.getByRole('tab', { name: 'Operation settings' })).toHaveCount(0)
  await userPage.getByRole('link', { name: 'Edit profile' }).click()
  await expect(heading(userPage, 'Edit profile')).toBeVisible()
  await expect(userPage.getByLabel('Group')).toHaveCount(0)
  await userPage.getByLabel('Display name').fill('Deleted Soon')
  await captureScreen(userPage, 'profile-edit')
  await userPage.getByRole('button', { name: 'Save' }).click()
  await expect(userPage).toHaveURL(/\/setting$/)
  await expect(userPage.getByText('Deleted Soon')).toBeVisible()

  const card = userPage.getByRole('region', { name: 'Delete account' })
  await card.getByRole('button', { name: 'Delete my account' }).click()
  const dialog = userPage.getByRole('dialog')
  await dialog.getByLabel(`Type ${username} to confirm`).fill('someone-else')
  await dialog.getByRole('button', { name: 'Delete for good' }).click()
  await expect(dialog.getByText('Enter your account name to confirm the deletion')).toBeVisible()
  await expectAccessible(userPage, 'account deletion dialog')
  await dialog.getByLabel(`Type ${username} to confirm`).fill(username)
  await dialog.getByRole('button', { name: 'Delete for good' }).click()
  await expect(userPage).toHaveURL(/\/login/)

  const again = await userPage.request.post('/api/user/login', { data: { username, password } })
  expect((await again.json()).success).toBe(false)
  await context.close()
})
