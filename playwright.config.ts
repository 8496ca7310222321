import { defineConfig, devices } from '@playwright/test'

/**
 * The console's end-to-end tests: the real server and the fake upstream (started by the global
 * setup), the built console, Debian's chromium (no browser download). One worker: the scenarios
 * build on each other's data and the machine is small.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'e2e/tests',
  outputDir: 'e2e/artifacts/results',
  globalSetup: './e2e/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'e2e/artifacts/results.json' }]],
  use: {
    // Set by the global setup, which runs before the workers read this file.
    baseURL: process.env.E2E_BASE_URL,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    // The trace's DOM snapshots and network log, kept for failed tests; a screencast would cost too much.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'sign-in', testMatch: /auth\.setup\.ts/ },
    {
      name: 'console',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
      dependencies: ['sign-in'],
    },
  ],
})
