import type { APIRequestContext, Page } from '@playwright/test'
import {
  codeIn,
  mailOptions,
  resetLinkIn,
  rootApi,
  setOptions,
  uniqueSuffix,
  waitForMail,
} from '../sign-in-helpers.ts'
import { captureScreen, dismissNotices, expect, heading, signIn, test } from '../support.ts'

// The switches this spec turns on; afterAll turns them off again for the other specs.
const SWITCHES_OFF = {
  EmailVerificationEnabled: 'false',
  GitHubOAuthEnabled: 'false',
  OidcEnabled: 'false',
  FreeKeyModeEnabled: 'false',
  WeChatAuthEnabled: 'false',
}

test.describe.configure({ mode: 'serial', timeout: 240_000 })

let root: APIRequestContext
test.beforeAll(async ({ baseURL }) => {
  root = await rootApi(baseURL ?? '')
  // The mail goes to the test SMTP server, whatever another spec saved meanwhile.
  await setOptions(root, { ...mailOptions(), EmailDomainRestrictionEnabled: 'false' })
})
test.afterAll(async () => {
  await setOptions(root, SWITCHES_OFF)
  await root.dispose()
})

const suffix = uniqueSuffix()
const person = { username: `reg${suffix}`, password: 'first-Pass1', email: `reg${suffix}@example.com` }

const signedInAs = (page: Page, username: string) =>
  expect(page.getByRole('button', { name: username, exact: true })).toBeVisible()

async function signOut(page: Page, username: string) {
  await page.getByRole('button', { name: username, exact: true }).click()
  await page.getByRole('menuitem', { name: /Sign out/ }).click()
  await expect(page).toHaveURL(/\/login$/)
}

test('a person registers with a mailed code, signs out, resets the password from the mail and signs in', async ({
  page,
}) => {
  // Four screens photographed and checked, on a small shared machine.
  test.slow()
  await setOptions(root, { EmailVerificationEnabled: 'true' })
  await page.goto('/register')
  await expect(heading(page, 'Create an account')).toBeVisible()
  await page.getByLabel(/^Username/).fill(person.username)
  await page.getByLabel(/^Password/).fill(person.password)
  await page.getByLabel(/^Confirm password/).fill(person.password)
  await page.getByLabel(/^Email/).fill(person.email)
  await page.getByRole('button', { name: 'Get code' }).click()
  // One mail per 30 s: the button counts down before it can be used again.
  await expect(page.getByRole('button', { name: /^Resend \(\d+ s\)$/ })).toBeDisabled()
  const code = codeIn(await waitForMail(person.email, 1))
  await page.getByLabel(/^Verification code/).fill(code)
  await captureScreen(page, 'sign-in-register-email-code')
  await page.getByRole('button', { name: 'Sign up', exact: true }).click()
  await expect(page).toHaveURL(/\/login$/)

  await signIn(page, person.username, person.password)
  await signOut(page, person.username)

  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(heading(page, 'Reset your password')).toBeVisible()
  await page.getByLabel(/^Email/).fill(person.email)
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'reset link has been sent' })).toBeVisible()
  await expect(page.getByRole('button', { name: /^Resend \(\d+ s\)$/ })).toBeDisabled()
  // The page says it in its own notice; the toast saying it too may be fading out under the check.
  await dismissNotices(page)
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0)
  await captureScreen(page, 'sign-in-forgot-password')

  await page.goto(resetLinkIn(await waitForMail(person.email, 2)))
  await expect(heading(page, 'Set a new password')).toBeVisible()
  await expect(page.getByLabel('Email')).toHaveValue(person.email)
  await captureScreen(page, 'sign-in-reset-confirm')
  await page.getByRole('button', { name: 'Reset password' }).click()
  const newPassword = page.getByRole('textbox', { name: 'New password' })
  await expect(newPassword).toHaveValue(/^\S{12}$/)
  const password = await newPassword.inputValue()
  await captureScreen(page, 'sign-in-reset-done')

  await signIn(page, person.username, password)
  // The old password no longer works.
  const old = await page.request.post('/api/user/login', {
    data: { username: person.username, password: person.password },
  })
  expect((await old.json()).success).toBe(false)
  await setOptions(root, { EmailVerificationEnabled: 'false' })
})

test('the login page shows the enabled providers; WeChat opens its QR code and code entry', async ({
  page,
}) => {
  await setOptions(root, {
    GitHubOAuthEnabled: 'true',
    OidcEnabled: 'true',
    WeChatAuthEnabled: 'true',
    WeChatAccountQRCodeImageURL: '/logo.png',
  })
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Sign in with GitHub' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Sign in with OIDC' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Sign in with Lark' })).toHaveCount(0)
  await captureScreen(page, 'sign-in-login-providers')
  await page.getByRole('button', { name: 'Sign in with WeChat' }).click()
  const dialog = page.getByRole('dialog', { name: 'Sign in with WeChat' })
  await expect(dialog.getByRole('img', { name: 'QR code of the official WeChat account' })).toBeVisible()
  await expect(dialog.getByLabel(/^Code from the official account/)).toBeVisible()
  await captureScreen(page, 'sign-in-wechat-modal')
  await setOptions(root, { WeChatAuthEnabled: 'false' })
})

async function signInWithGitHub(page: Page, login: string) {
  await page.goto('/login')
  await page.getByRole('button', { name: 'Sign in with GitHub' }).click()
  await expect(page.getByRole('heading', { name: 'Authorize application (github)' })).toBeVisible()
  await page.getByLabel('Account login').fill(login)
  await page.getByRole('button', { name: 'Authorize' }).click()
  await expect(page).toHaveURL(/\/oauth\/github\?code=/)
}

test('GitHub sign-in through the fake registers the person and goes home', async ({ page }) => {
  await setOptions(root, { GitHubOAuthEnabled: 'true', FreeKeyModeEnabled: 'false' })
  const login = `gh${suffix}`
  await signInWithGitHub(page, login)
  await expect(page).toHaveURL((url) => url.pathname === '/')
  await signedInAs(page, login)
})

test('in free-key mode the GitHub callback shows the API URL and the default key', async ({
  page,
  baseURL,
}) => {
  await setOptions(root, {
    GitHubOAuthEnabled: 'true',
    FreeKeyModeEnabled: 'true',
    FreeKeyPaidServiceLink: 'https://paid.example.com',
  })
  const login = `fk${suffix}`
  await signInWithGitHub(page, login)
  await expect(page.getByText('Authorization succeeded').first()).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'API URL' })).toHaveValue(baseURL ?? '')
  const key = page.getByRole('textbox', { name: 'API key' })
  await expect(key).toHaveValue(/^sk-[A-Za-z0-9]{20,}$/)
  await expect(page.getByText('The free key is for personal use only.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Use the paid service' })).toHaveAttribute(
    'href',
    'https://paid.example.com',
  )
  await captureScreen(page, 'sign-in-free-key')
  // The key is that of the default token, created for the new person.
  const tokens = (await (await page.request.get('/api/token/?p=0')).json()).data as {
    name: string
    key: string
  }[]
  expect(tokens.map((token) => token.name)).toEqual(['default'])
  expect(`sk-${tokens[0].key.replace(/^sk-/, '')}`).toBe(await key.inputValue())
  // A later sign-in (from a signed-out browser: signed in, GitHub would bind) reuses the token.
  const firstKey = await key.inputValue()
  await page.context().clearCookies()
  await page.evaluate(() => localStorage.removeItem('user'))
  await signInWithGitHub(page, login)
  await expect(page.getByRole('textbox', { name: 'API key' })).toHaveValue(firstKey)
  await setOptions(root, { FreeKeyModeEnabled: 'false' })
})

test('OIDC sign-in through a real OpenID provider', async ({ page }) => {
  await setOptions(root, { OidcEnabled: 'true' })
  await page.goto('/login')
  await page.getByRole('button', { name: 'Sign in with OIDC' }).click()
  // oidc-provider's development sign-in and consent pages.
  await page.locator('input[name="login"]').fill(`oidc${suffix}`)
  await page.locator('input[name="password"]').fill('any-password')
  await page.locator('button[type="submit"]').click()
  await page.locator('button[type="submit"]').click()
  await expect(page).toHaveURL((url) => url.pathname === '/')
  const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}'))
  expect(user.username).toMatch(/^oidc/)
  await signedInAs(page, user.username)
})

test('a person binds an email address in personal settings', async ({ page }) => {
  const login = `bd${suffix}`
  await setOptions(root, { GitHubOAuthEnabled: 'true' })
  await signInWithGitHub(page, login)
  await signedInAs(page, login)
  await page.goto('/setting')
  const card = page.getByRole('region', { name: 'Bound accounts' })
  await expect(card.getByText('Not bound').first()).toBeVisible()
  await expect(card.getByText(login)).toBeVisible()
  await captureScreen(page, 'sign-in-bound-accounts')
  await card.getByRole('button', { name: 'Bind: Email' }).click()
  const dialog = page.getByRole('dialog', { name: 'Bind email address' })
  const email = `${login}@example.com`
  await dialog.getByLabel(/^Email/).fill(email)
  await dialog.getByRole('button', { name: 'Get code' }).click()
  await expect(dialog.getByRole('button', { name: /^Resend \(\d+ s\)$/ })).toBeDisabled()
  await dialog.getByLabel(/^Verification code/).fill(codeIn(await waitForMail(email, 1)))
  await captureScreen(page, 'sign-in-bind-email')
  await dialog.getByRole('button', { name: 'Bind', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(card.getByText(email)).toBeVisible()
})
