import { mkdirSync } from 'node:fs'
import { join } from 'node:path'

const DEFAULT_TIMEOUT_MS = 10_000

/**
 * A tiny runner: each check runs in order, a failure is recorded with a screenshot of the page
 * and the run goes on, so one broken screen does not hide the state of the others.
 */
export function createHarness({ artifactsDirectory, keepScreenshots }) {
  const results = []
  let page

  const slug = (name) =>
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60)

  async function screenshot(name) {
    const file = join(artifactsDirectory, `${name}.png`)
    mkdirSync(join(file, '..'), { recursive: true })
    try {
      await page.screenshot({ path: file, fullPage: true })
      return file
    } catch {
      return undefined
    }
  }

  return {
    usePage(nextPage) {
      page = nextPage
    },
    async check(name, body) {
      const started = Date.now()
      try {
        await body()
        results.push({ name, passed: true })
        console.log(`  ok    ${name} (${Date.now() - started} ms)`)
        if (keepScreenshots && page) await screenshot(`pages/${slug(name)}`)
      } catch (error) {
        results.push({ name, passed: false })
        console.log(
          `  FAIL  ${name}\n        ${String(error?.message ?? error)
            .split('\n')
            .join('\n        ')}`,
        )
        if (page) {
          const file = await screenshot(`failure-${results.length}-${slug(name)}`)
          if (file) console.log(`        screenshot: ${file}`)
        }
      }
    },
    summary() {
      const passed = results.filter((result) => result.passed).length
      return { passed, failed: results.length - passed }
    },
  }
}

/** Waits until the locator is visible; the message names what was expected. */
export async function expectVisible(locator, what, timeout = DEFAULT_TIMEOUT_MS) {
  try {
    await locator.first().waitFor({ state: 'visible', timeout })
  } catch {
    throw new Error(`expected to see ${what}`)
  }
}

export async function expectAbsent(locator, what) {
  const count = await locator.count()
  if (count > 0) throw new Error(`expected no ${what}, found ${count}`)
}

export async function expectUrl(page, pathWithQuery, timeout = DEFAULT_TIMEOUT_MS) {
  try {
    await page.waitForURL((url) => `${url.pathname}${url.search}` === pathWithQuery, { timeout })
  } catch {
    const url = new URL(page.url())
    throw new Error(`expected to be at ${pathWithQuery}, but at ${url.pathname}${url.search}`)
  }
}

export function expectEqual(actual, expected, what) {
  if (actual !== expected) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)
  }
}
