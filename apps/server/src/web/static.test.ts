import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../testing/test-app.ts'

describe('serving the built console', () => {
  let server: TestApp
  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'one-api-dist-'))
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root">console</div>')
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)')
    writeFileSync(join(dist, 'logo.png'), 'png')
    server = await startTestApp('sqlite', { WEB_DIST_PATH: dist })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('serves hashed assets with a year of caching and index.html revalidated', async () => {
    const asset = await fetch(`${server.baseUrl}/assets/index-abc123.js`)
    expect(asset.status).toBe(200)
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const logo = await fetch(`${server.baseUrl}/logo.png`)
    expect(logo.headers.get('cache-control')).toBe('no-cache')
  })

  it('falls back to index.html for console routes, including unknown ones', async () => {
    for (const path of ['/', '/login', '/token/edit/3', '/no/such/page']) {
      const response = await fetch(server.baseUrl + path)
      expect(response.status, path).toBe(200)
      expect(await response.text()).toContain('console')
      expect(response.headers.get('cache-control')).toBe('no-cache')
    }
  })

  it('answers unknown API and relay paths with JSON errors, not the console', async () => {
    const api = await fetch(`${server.baseUrl}/api/nope`)
    expect(api.status).toBe(404)
    expect(await api.json()).toEqual({ success: false, message: 'Invalid URL (GET /api/nope)' })
    const relay = await fetch(`${server.baseUrl}/v1/nope`, { method: 'POST' })
    expect(relay.status).toBe(404)
    expect((await relay.json()).error.message).toBe(
      `Invalid URL (POST /v1/nope) (request id: ${relay.headers.get('x-oneapi-request-id')})`,
    )
  })

  it('tags every response with a request id', async () => {
    const response = await fetch(`${server.baseUrl}/api/status`)
    expect(response.headers.get('x-oneapi-request-id')).toMatch(/^\d{17}[0-9a-f]{8}$/)
  })
})
