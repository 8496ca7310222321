import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Page } from '@playwright/test'

export { ROOT_PASSWORD, UPSTREAM_KEY } from './constants.ts'
export const ROOT_SESSION = fileURLToPath(new URL('./artifacts/.auth/root.json', import.meta.url))
const SCREENS = fileURLToPath(new URL('./artifacts/screens', import.meta.url))

export const upstreamUrl = () => {
  const url = process.env.E2E_UPSTREAM_URL
  if (!url) throw new Error('E2E_UPSTREAM_URL is not set: the global setup did not run')
  return url
}

/** Every test fails on an uncaught error in the page. */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await use(errors)
      expect(errors, 'uncaught errors in the page').toEqual([])
    },
    { auto: true },
  ],
})
export { expect }

export const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, exact: true })
export const menuLink = (page: Page, label: string, menu = 'Main menu') =>
  page.getByRole('navigation', { name: menu }).getByRole('link', { name: label, exact: true })

export async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login')
  await page.getByLabel(/^Username/).fill(username)
  await page.getByLabel(/^Password/).fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL((url) => url.pathname === '/')
  await expect(page.getByRole('button', { name: username, exact: true })).toBeVisible()
}

/** No serious or critical accessibility violation (axe-core's WCAG 2.1 A/AA rules) on the page. */
export async function expectAccessible(page: Page, screen: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    )
  expect(blocking, `accessibility violations on ${screen}`).toEqual([])
}

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const

async function setScheme(page: Page, scheme: 'light' | 'dark') {
  await page.evaluate(
    (value) => document.documentElement.setAttribute('data-mantine-color-scheme', value),
    scheme,
  )
}

/**
 * Screenshots of the screen as it is now at 1280 px and 390 px wide, light and dark, into
 * e2e/artifacts/screens/; the accessibility check runs on the light and the dark desktop screen.
 * The page is left at the desktop size in light mode.
 */
export async function captureScreen(page: Page, name: string) {
  mkdirSync(SCREENS, { recursive: true })
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme)
      // From the top: a full-page shot of a scrolled page draws the fixed header over the heading.
      await page.evaluate(() => window.scrollTo(0, 0))
      // Let transitions and the phone/desktop switch settle.
      await page.waitForTimeout(250)
      await page.screenshot({ path: join(SCREENS, `${name}-${viewport.name}-${scheme}.png`), fullPage: true })
      if (viewport.name === 'desktop') await expectAccessible(page, `${name} (${scheme})`)
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 })
  await setScheme(page, 'light')
}

/**
 * Closes the toasts on screen: they sit over the top right of the page, where tables keep their
 * row actions, and a click there would land on the toast instead.
 */
export async function dismissNotices(page: Page) {
  const close = page.locator('.mantine-Notification-root').getByRole('button', { name: 'Close' })
  // A toast may close by itself meanwhile: a click that finds none is not an error.
  while ((await close.count()) > 0)
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined)
}
