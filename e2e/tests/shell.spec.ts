import type { Page } from '@playwright/test'
import { ROOT_PASSWORD } from '../constants.ts'
import { captureScreen, expect, expectAccessible, heading, menuLink, signIn, test } from '../support.ts'

const MENU_PAGES = [
  { label: 'Home', path: '/', heading: 'Welcome to One API' },
  { label: 'Channel', path: '/channel', heading: 'Channels' },
  { label: 'Token', path: '/token', heading: 'Tokens' },
  { label: 'Redemption', path: '/redemption', heading: 'Redemption codes' },
  { label: 'User', path: '/user', heading: 'Manage users' },
  { label: 'Log', path: '/log', heading: 'Usage logs' },
  { label: 'Setting', path: '/setting', heading: 'Settings' },
]
const ADMIN_ITEMS = ['Channel', 'Redemption', 'User']
const USER = { username: 'alice', password: 'alice-Pass1' }

// The visitor's journeys: registration comes before the new user signs in.
test.describe.configure({ mode: 'serial' })

test('the home page shows the welcome, the sign-in link and the default footer', async ({ page }) => {
  await page.goto('/')
  await expect(heading(page, 'Welcome to One API')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible()
  await expect(page.getByText('an AI API gateway based on')).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('system_name'))).toBe('One API')
  await captureScreen(page, 'home-welcome')
})

test('a guarded page sends a signed-out visitor to /login', async ({ page }) => {
  await page.goto('/token')
  await expect(page).toHaveURL(/\/login$/)
  await expect(heading(page, 'Sign in to your account')).toBeVisible()
  await captureScreen(page, 'login')
})

/**
 * Sums the layout shifts (Chromium's Layout Instability API) of everything above the footer from
 * the first paint on. The footer is left out: on a very first visit its text grows when the status
 * record brings the version, which no code loading changes.
 */
async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    type Source = { node?: Node | null }
    type Shift = { value: number; hadRecentInput: boolean; sources: Source[] }
    const scope = window as unknown as { layoutShift: number }
    scope.layoutShift = 0
    const inFooter = (node?: Node | null) => {
      const element = node instanceof Element ? node : node?.parentElement
      return Boolean(element?.closest('footer'))
    }
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as Shift[])
        if (!entry.hadRecentInput && !entry.sources.every((source) => inFooter(source.node)))
          scope.layoutShift += entry.value
    }).observe({ type: 'layout-shift', buffered: true })
  })
  return () => page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift)
}

// The sign-in form comes first; the provider buttons, the menus and TanStack Query load after it.
for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`the sign-in page does not move while its later parts load (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    const layoutShift = await recordLayoutShifts(page)
    await page.goto('/login')
    const title = heading(page, 'Sign in to your account')
    await expect(title).toBeVisible()
    const first = await title.boundingBox()
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(500)
    expect(await title.boundingBox()).toEqual(first)
    expect(await layoutShift()).toBeLessThan(0.01)
  })
}

test('a wrong password shows the server message and stays on /login', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel(/^Username/).fill('root')
  await page.getByLabel(/^Password/).fill('not-the-password')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByText(/Wrong username or password/)).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)
})

test('root signs in, sees the admin menu and every menu item opens its page', async ({ page }) => {
  await signIn(page, 'root', ROOT_PASSWORD)
  for (const label of ADMIN_ITEMS) await expect(menuLink(page, label)).toBeVisible()
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').role)).toBe(100)
  for (const item of MENU_PAGES) {
    await menuLink(page, item.label).click()
    await expect(page).toHaveURL((url) => url.pathname === item.path)
    await expect(heading(page, item.heading)).toBeVisible()
  }
})

test('a menu link under the pointer stays readable in light and dark mode', async ({ page }) => {
  await signIn(page, 'root', ROOT_PASSWORD)
  await menuLink(page, 'Log').click()
  await expect(heading(page, 'Usage logs')).toBeVisible()
  // The current page's link and another one, each hovered in both schemes.
  for (const label of ['Log', 'Token']) {
    for (const scheme of ['light', 'dark']) {
      await page.evaluate(
        (value) => document.documentElement.setAttribute('data-mantine-color-scheme', value),
        scheme,
      )
      await menuLink(page, label).hover()
      await expectAccessible(page, `the ${label} menu link hovered (${scheme})`)
    }
  }
})

test('personal settings show the profile, an access token and the invite link', async ({ page }) => {
  await signIn(page, 'root', ROOT_PASSWORD)
  await page.goto('/setting')
  await expect(page.getByRole('tab', { name: 'Personal settings' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByText('Super administrator').first()).toBeVisible()
  await page.getByRole('button', { name: 'Generate access token' }).click()
  await expect(page.getByTestId('access-token')).toHaveText(/^\s*[A-Za-z0-9]{16,64}\s*$/)
  const origin = new URL(page.url()).origin
  await expect(page.getByLabel('Your invite link')).toHaveValue(new RegExp(`^${origin}/register\\?aff=`))
})

test('the dark mode toggle switches and is remembered; the language switch shows Chinese', async ({
  page,
}) => {
  await signIn(page, 'root', ROOT_PASSWORD)
  await page.goto('/setting')
  const scheme = () => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))
  await page.getByRole('button', { name: 'Switch to dark mode' }).click()
  expect(await scheme()).toBe('dark')
  await page.reload()
  await expect(heading(page, 'Settings')).toBeVisible()
  expect(await scheme()).toBe('dark')
  await page.getByRole('button', { name: 'Switch to light mode' }).click()
  expect(await scheme()).toBe('light')
  await page.getByRole('button', { name: 'Language' }).click()
  await page.getByRole('menuitem', { name: '中文' }).click()
  await expect(menuLink(page, '首页', '主菜单')).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh')
  await page.getByRole('button', { name: '语言' }).click()
  await page.getByRole('menuitem', { name: 'English' }).click()
  await expect(menuLink(page, 'Home')).toBeVisible()
})

// Signing out ends every session of that user, so this test signs out a user of its own:
// signing root out would end the saved root session the other specs use.
test('a user signs out from the username menu', async ({ page }) => {
  const leaver = { username: 'leaver', password: 'leaver-Pass1' }
  const registered = await page.request.post('/api/user/register', { data: leaver })
  expect((await registered.json()).success).toBe(true)
  // The menu's code arrives late: a click on the username meanwhile opens the menu once it is there.
  await page.route('**/assets/signed-in-menu-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    await route.continue()
  })
  await signIn(page, leaver.username, leaver.password)
  await page.getByRole('button', { name: leaver.username, exact: true }).click()
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible()
  await expectAccessible(page, 'the username menu')
  await page.getByRole('menuitem', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull()
})

test('a new user registers, signs in, sees no admin items and is refused /channel', async ({ page }) => {
  await page.goto('/register')
  await expect(heading(page, 'Create an account')).toBeVisible()
  await page.waitForLoadState('networkidle')
  const username = page.getByLabel(/^Username/)
  await username.fill(USER.username)
  await page.getByLabel(/^Password/).fill(USER.password)
  await page.getByLabel(/^Confirm password/).fill('something-else')
  await expect(page.getByText('The two passwords do not match')).toBeVisible()
  await page.getByLabel(/^Confirm password/).fill(USER.password)
  await expect(username).toHaveValue(USER.username)
  await page.getByRole('button', { name: 'Sign up', exact: true }).click()
  await expect(page).toHaveURL(/\/login$/)

  await signIn(page, USER.username, USER.password)
  for (const label of ['Home', 'Token', 'Log', 'Setting']) await expect(menuLink(page, label)).toBeVisible()
  for (const label of ADMIN_ITEMS) await expect(menuLink(page, label)).toHaveCount(0)
  await page.goto('/channel')
  await expect(page.getByText('Permission denied')).toBeVisible()
  await expect(heading(page, 'Channels')).toHaveCount(0)
})

test('a page whose code is still downloading shows the loading placeholder', async ({ page }) => {
  await signIn(page, USER.username, USER.password)
  await page.route('**/assets/tokens-page-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await route.continue()
  })
  await menuLink(page, 'Token').click()
  // One placeholder on screen. The document once held two while one showed (the failure's
  // screenshot of a full-suite run): what a person sees is what counts.
  await expect(page.getByText('Loading page ...').filter({ visible: true })).toHaveCount(1)
  await expect(heading(page, 'Tokens')).toBeVisible()
})

test('a page whose code cannot be downloaded shows the chunk error page', async ({ page }) => {
  await signIn(page, USER.username, USER.password)
  await page.route('**/assets/logs-page-*.js', (route) => route.abort())
  await menuLink(page, 'Log').click()
  await expect(heading(page, 'The page could not be loaded')).toBeVisible()
  await expect(menuLink(page, 'Home')).toBeVisible()
})

test('HTTP 500 and 429 replies show the catalogue messages', async ({ page }) => {
  await signIn(page, USER.username, USER.password)
  for (const [status, message] of [
    [500, 'Internal server error, contact the administrator'],
    [429, 'Too many requests, try later'],
  ] as const) {
    await page.route('**/api/user/self', (route) =>
      route.fulfill({ status, contentType: 'application/json', body: '{"success":false,"message":"x"}' }),
    )
    await page.goto('/setting')
    // The personal tab's cards each ask for the account, so the toast may show more than once.
    await expect(page.getByText(message).first()).toBeVisible()
    await page.unroute('**/api/user/self')
  }
})

test('a status load failure says the server cannot be reached', async ({ page }) => {
  await page.route('**/api/status', (route) => route.abort())
  await page.goto('/')
  // Said by the page and by a notice (the home page's dashboard asks for the status too).
  await expect(page.getByText('Cannot connect to the server normally').first()).toBeVisible()
})

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/no/such/page')
  await expect(heading(page, 'Page not found')).toBeVisible()
  await captureScreen(page, 'not-found')
})

test('an invalid session sends the next API call to /login?expired=true', async ({ page, context }) => {
  await signIn(page, USER.username, USER.password)
  await context.clearCookies()
  await page.goto('/setting')
  await expect(page).toHaveURL(/\/login\?expired=true$/)
  await expect(page.getByText('Your session has expired')).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull()
})

test('on a phone the sidebar holds the menu with sign-in and sign-up', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto('/')
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden()
  await page.getByRole('button', { name: 'Toggle navigation' }).click()
  const drawer = page.getByRole('dialog')
  await expect(drawer.getByRole('link', { name: 'Token' })).toBeVisible()
  await expect(drawer.getByRole('link', { name: 'Sign in' })).toBeVisible()
  await expect(drawer.getByRole('link', { name: 'Sign up' })).toBeVisible()
  await drawer.getByRole('link', { name: 'Token' }).hover()
  await expectAccessible(page, 'the phone sidebar with a hovered item')
})
