import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'

const METRICS_TOKEN = 'scraper-secret-0123456789'

describe('GET /metrics with METRICS_TOKEN set', () => {
  let server: TestApp
  const scrape = (authorization?: string) =>
    fetch(`${server.baseUrl}/metrics`, { headers: authorization ? { authorization } : {} })

  beforeAll(async () => {
    server = await startTestApp('sqlite', { METRICS_TOKEN })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('answers 401 without the token, or with another one, and shows no figure', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${METRICS_TOKEN}x`, METRICS_TOKEN]) {
      const response = await scrape(authorization)
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"')
      const body = await response.text()
      expect(body).not.toContain('oneapi_')
      expect(JSON.parse(body)).toMatchObject({
        success: false,
        message: expect.stringContaining('METRICS_TOKEN'),
      })
    }
  })

  it('serves the Prometheus text to a scraper with the token', async () => {
    const response = await scrape(`Bearer ${METRICS_TOKEN}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(await response.text()).toContain('# TYPE oneapi_relay_requests_total counter')
  })
})
