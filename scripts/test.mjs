// `npm test`: every Vitest suite, then the browser end-to-end tests (Playwright), with one closing count line.
// Database and Redis suites run when TEST_POSTGRES_URL / TEST_MYSQL_URL / TEST_REDIS_URL are set
// (.ci/run sets them); otherwise they are skipped and say so.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureWebBuilt } from './web-build.mjs'

const root = new URL('..', import.meta.url).pathname
const services = [
  ['TEST_POSTGRES_URL', 'PostgreSQL'],
  ['TEST_MYSQL_URL', 'MySQL'],
  ['TEST_REDIS_URL', 'Redis'],
]
for (const [variable, name] of services) {
  if (process.env[variable]) console.log(`${name} suites: ON (${variable} is set)`)
  else console.log(`${name} suites: SKIPPED — set ${variable} to run them (see docs/testing.md)`)
}

const report = join(mkdtempSync(join(tmpdir(), 'one-api-vitest-')), 'report.json')
const vitest = spawnSync(
  join(root, 'node_modules/.bin/vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
)
let passed = 0
let failed = vitest.status === 0 ? 0 : 1
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'))
  passed = results.numPassedTests
  // A file that failed without a failed test (it could not load, or a hook threw) counts once;
  // a failed test is not counted again through its file and describe blocks.
  const brokenFiles = results.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length
  failed = results.numFailedTests + brokenFiles
  if (vitest.status !== 0 && failed === 0) failed = 1
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (process.argv.length > 2) {
  console.log('End-to-end browser tests: not run (a test filter was given)')
} else if (existsSync(chromium)) {
  ensureWebBuilt()
  // Playwright's JSON report gives the counts: expected = passed, unexpected = failed.
  const e2eReport = join(root, 'e2e/artifacts/results.json')
  rmSync(e2eReport, { force: true })
  const e2e = spawnSync(join(root, 'node_modules/.bin/playwright'), ['test'], { cwd: root, stdio: 'inherit' })
  if (existsSync(e2eReport)) {
    const { stats } = JSON.parse(readFileSync(e2eReport, 'utf8'))
    passed += stats.expected + stats.flaky
    failed += stats.unexpected
    if (e2e.status !== 0 && stats.unexpected === 0) failed += 1
  } else {
    failed += 1
  }
} else {
  console.log(`End-to-end browser tests: SKIPPED — no Chromium at ${chromium} (apt-get install chromium)`)
}
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
