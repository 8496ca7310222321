// End-to-end test of the console: the real server, the built console, Debian's chromium.
// Run `npm run build` first; then `node e2e/run.mjs` (E2E_SCREENSHOTS=1 keeps a picture of each step).
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { createHarness } from './harness.mjs'
import { runScenarios } from './scenarios.mjs'
import { startServer } from './server.mjs'

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url))
const artifactsDirectory = join(repositoryRoot, 'e2e', 'artifacts')
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ROOT_PASSWORD = 'e2e-root-Pass1'

async function main() {
  if (!existsSync(join(repositoryRoot, 'apps/web/dist/index.html'))) {
    console.error('apps/web/dist is missing: run `npm run build` first.')
    return 1
  }
  if (!existsSync(chromiumPath)) {
    console.error(`${chromiumPath} is missing: apt-get install -y chromium (or set CHROMIUM_PATH).`)
    return 1
  }
  const harness = createHarness({ artifactsDirectory, keepScreenshots: process.env.E2E_SCREENSHOTS === '1' })
  const server = await startServer({ repositoryRoot, rootPassword: ROOT_PASSWORD })
  const userDataDirectory = mkdtempSync(join(tmpdir(), 'one-api-e2e-chromium-'))
  let context
  try {
    console.log(`server at ${server.baseUrl}`)
    context = await chromium.launchPersistentContext(userDataDirectory, {
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
      locale: 'en-US',
      viewport: { width: 1280, height: 800 },
      baseURL: server.baseUrl,
    })
    await runScenarios({ context, harness, baseUrl: server.baseUrl, rootPassword: ROOT_PASSWORD })
  } catch (error) {
    console.log(`  FAIL  the run stopped: ${error?.stack ?? error}`)
    await harness.check('the run completes', () => Promise.reject(error))
  } finally {
    await context?.close().catch(() => {})
    await server.stop()
    rmSync(userDataDirectory, { recursive: true, force: true })
  }
  const { passed, failed } = harness.summary()
  console.log(`${passed} passed, ${failed} failed`)
  return failed > 0 ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error)
    console.log('0 passed, 1 failed')
    process.exit(1)
  },
)
