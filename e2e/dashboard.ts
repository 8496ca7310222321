// End-to-end test of the home page's usage dashboard: the real server and the fake upstream, the
// built console in Debian's chromium. Relay requests (some failing over from a broken channel) must
// move the figures a user and an administrator see. Screenshots at 1280 px and 390 px, light and
// dark, are kept in e2e/artifacts/dashboard/.
//   npm run build && node_modules/.bin/tsx e2e/dashboard.ts
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startMockUpstream } from '@one-api/mock-upstream'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { createHarness, expectVisible } from './harness.mjs'
import { startServer } from './server.mjs'

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url))
const artifacts = join(repositoryRoot, 'e2e', 'artifacts', 'dashboard')
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ROOT_PASSWORD = 'e2e-root-Pass1'
const MODEL = 'gpt-4o-mini'

class Api {
  private cookie = ''
  constructor(private readonly baseUrl: string) {}

  async call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', cookie: this.cookie },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const setCookie = response.headers.get('set-cookie')
    if (setCookie) this.cookie = setCookie.split(';')[0] ?? ''
    const json = (await response.json()) as { success: boolean; message: string; data: unknown }
    if (!json.success) throw new Error(`${method} ${path}: ${json.message}`)
    return json.data
  }
}

async function relay(baseUrl: string, key: string, count: number) {
  for (let index = 0; index < count; index++) {
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: `hello ${index}` }] }),
    })
    if (response.status !== 200)
      throw new Error(`relay answered ${response.status}: ${await response.text()}`)
    await response.arrayBuffer()
  }
}

/** The figure under a stat card's label, in the section headed `section`. */
async function statValue(page: Page, label: string): Promise<string> {
  const card = page.locator('.mantine-Card-root', { hasText: label }).first()
  return (await card.locator('p').nth(1).textContent()) ?? ''
}

async function screenshots(context: BrowserContext, page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      await page.evaluate((value) => localStorage.setItem('color_scheme', value), scheme)
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 })
      await page.reload()
      await expectVisible(page.getByText('Requests per day'), 'the requests chart')
      await page.waitForTimeout(800)
      await page.screenshot({ path: join(artifacts, `${name}-${width}-${scheme}.png`), fullPage: true })
    }
  }
  await context.clearCookies().catch(() => {})
}

async function main() {
  if (!existsSync(join(repositoryRoot, 'apps/web/dist/index.html')))
    throw new Error('run `npm run build` first')
  mkdirSync(artifacts, { recursive: true })
  const harness = createHarness({ artifactsDirectory: artifacts, keepScreenshots: false })
  const mock = await startMockUpstream()
  const server = await startServer({ repositoryRoot, rootPassword: ROOT_PASSWORD })
  const profile = mkdtempSync(join(tmpdir(), 'one-api-e2e-dashboard-'))
  let context: BrowserContext | undefined
  try {
    const api = new Api(server.baseUrl)
    await api.call('POST', '/api/user/login', { username: 'root', password: ROOT_PASSWORD })
    await api.call('PUT', '/api/option/', { key: 'RetryTimes', value: '2' })
    // A price high enough for a few short requests to show as cents.
    await api.call('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [MODEL]: 500 }) })
    // The broken channel is tried first (higher priority) and fails every time.
    mock.addFault({ match: { keyContains: 'sk-broken' }, status: 500 })
    for (const [name, key, priority] of [
      ['Primary (broken)', 'sk-broken', 10],
      ['Backup', 'sk-backup', 0],
    ] as const) {
      await api.call('POST', '/api/channel/', {
        name,
        type: 50,
        key,
        base_url: `${mock.url}/v1`,
        models: [MODEL],
        group: ['default'],
        priority,
      })
    }
    const token = (await api.call('POST', '/api/token/', {
      name: 'e2e',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    })) as { key: string }
    const key = token.key.startsWith('sk-') ? token.key : `sk-${token.key}`

    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
      ],
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
      baseURL: server.baseUrl,
    })
    const page = context.pages()[0] ?? (await context.newPage())
    page.setDefaultTimeout(20_000)
    harness.usePage(page)
    const { check } = harness

    await check('a signed-in administrator sees an empty week before any request', async () => {
      await page.goto('/login')
      await page.getByLabel(/^Username/).fill('root')
      await page.getByLabel(/^Password/).fill(ROOT_PASSWORD)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expectVisible(page.getByRole('heading', { name: 'Your usage, last 8 days' }), 'the usage heading')
      await expectVisible(page.getByText('No requests in this period yet.').first(), 'the empty notice')
      if ((await statValue(page, 'Requests')) !== '0') throw new Error('requests should start at 0')
    })

    await check('relay requests move the dashboard: requests, models, channels and error rate', async () => {
      await relay(server.baseUrl, key, 12)
      // The logs and the failure counts are written in batches, within a few seconds.
      const deadline = Date.now() + 30_000
      for (;;) {
        await page.reload()
        await expectVisible(page.getByRole('heading', { name: "Everyone's usage" }), 'the admin section')
        const requests = await statValue(page, 'Requests')
        const errorBadge = page.getByRole('cell', { name: /%$/ }).first()
        if (requests === '12' && (await page.getByText('Primary (broken)').count()) > 0) {
          await expectVisible(page.getByRole('cell', { name: MODEL }).first(), 'the model row')
          await expectVisible(errorBadge, 'an error rate')
          break
        }
        if (Date.now() > deadline) throw new Error(`the dashboard still says ${requests} requests`)
        await page.waitForTimeout(1000)
      }
      const broken = page.getByRole('row', { name: /Primary \(broken\)/ })
      const rate = await broken.getByText(/%$/).textContent()
      if (rate !== '100.0%') throw new Error(`the broken channel's error rate is ${rate}`)
    })

    await check('screenshots at 1280 and 390 px, light and dark', async () => {
      await screenshots(context!, page, 'home-admin')
    })
  } finally {
    await context?.close().catch(() => {})
    await server.stop()
    await mock.close()
    rmSync(profile, { recursive: true, force: true })
  }
  const { passed, failed } = harness.summary()
  console.log(`${passed} passed, ${failed} failed`)
  return failed > 0 ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
