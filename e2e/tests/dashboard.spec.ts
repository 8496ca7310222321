import type { Page } from '@playwright/test'
import { captureScreen, expect, heading, ROOT_SESSION, test, UPSTREAM_KEY, upstreamUrl } from '../support.ts'

const MODEL = 'gpt-4o-mini'
const BROKEN = 'Dashboard broken channel'
const SERVING = 'Dashboard serving channel'

test.use({ storageState: ROOT_SESSION })

async function api(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  const response = await page.request.fetch(path, { method, data })
  const body = await response.json()
  expect(body.success, `${method} ${path}: ${body.message}`).toBe(true)
  return body.data
}

/** The figure of the first stat card with this label. */
async function stat(page: Page, label: string): Promise<number> {
  const card = page.locator('.mantine-Card-root', { hasText: label }).first()
  return Number((await card.locator('p').nth(1).textContent())?.replace(/[^\d.]/g, ''))
}

test('relay requests move the home page dashboard, with a failing channel at 100 % errors', async ({
  page,
}) => {
  await page.goto('/')
  await api(page, 'PUT', '/api/option/', { key: 'RetryTimes', value: '2' })
  // A price high enough for a few short requests to show as cents.
  await api(page, 'PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [MODEL]: 500 }) })
  // Tried first and never reachable (nothing listens on port 9), so every request fails over.
  await api(page, 'POST', '/api/channel/', {
    name: BROKEN,
    type: 50,
    key: UPSTREAM_KEY,
    base_url: 'http://127.0.0.1:9/v1',
    models: [MODEL],
    group: ['default'],
    priority: 100,
  })
  await api(page, 'POST', '/api/channel/', {
    name: SERVING,
    type: 50,
    key: UPSTREAM_KEY,
    base_url: `${upstreamUrl()}/v1`,
    models: [MODEL],
    group: ['default'],
    priority: 50,
  })
  const token = await api(page, 'POST', '/api/token/', {
    name: 'dashboard',
    remain_quota: 0,
    unlimited_quota: true,
    expired_time: -1,
  })
  const key = String(token.key).startsWith('sk-') ? token.key : `sk-${token.key}`

  await page.reload()
  await expect(heading(page, 'Your usage, last 8 days')).toBeVisible()
  await expect(heading(page, "Everyone's usage")).toBeVisible()
  const before = await stat(page, 'Requests')

  for (let index = 0; index < 6; index++) {
    const answer = await page.request.post('/v1/chat/completions', {
      headers: { authorization: `Bearer ${key}` },
      data: { model: MODEL, messages: [{ role: 'user', content: `hello ${index}` }] },
    })
    expect(answer.status()).toBe(200)
  }

  // Logs and failure counts are written in batches, within a few seconds.
  await expect(async () => {
    await page.reload()
    await expect(heading(page, "Everyone's usage")).toBeVisible()
    expect(await stat(page, 'Requests')).toBe(before + 6)
    await expect(page.getByRole('row', { name: new RegExp(BROKEN) })).toContainText('100.0%', {
      timeout: 1000,
    })
  }).toPass({ timeout: 30_000 })
  await expect(page.getByRole('row', { name: new RegExp(SERVING) })).toContainText('0.0%')
  await expect(page.getByRole('cell', { name: MODEL }).first()).toBeVisible()
  await expectFitsOnPhone(page)
  await captureScreen(page, 'home-dashboard')
})

/** On a 390 px phone the channel table's last column stays inside its card's padding, not cut off. */
async function expectFitsOnPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 })
  const card = page.locator('.mantine-Card-root', { hasText: 'Channels by traffic' })
  const inner = await card.evaluate((element) => {
    const box = element.getBoundingClientRect()
    return box.right - Number.parseFloat(getComputedStyle(element).paddingRight)
  })
  const rate = page.getByRole('row', { name: new RegExp(BROKEN) }).getByText('100.0%')
  for (const cell of [rate, card.getByRole('columnheader').last()]) {
    const box = await cell.boundingBox()
    expect(box && Math.round(box.x + box.width)).toBeLessThanOrEqual(Math.round(inner))
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}
