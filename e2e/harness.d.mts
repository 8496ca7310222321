import type { Locator, Page } from 'playwright-core'

export interface Harness {
  usePage(page: Page): void
  check(name: string, run: () => Promise<void>): Promise<void>
  summary(): { passed: number; failed: number }
}
export function createHarness(options: { artifactsDirectory: string; keepScreenshots: boolean }): Harness
export function expectVisible(locator: Locator, what: string, timeout?: number): Promise<void>
