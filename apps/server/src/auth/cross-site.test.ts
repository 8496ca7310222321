import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, outcome, REFUSED } from '../testing/http-client.ts'
import { ROOT_ACCESS_TOKEN, ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'

/**
 * A signed-in browser sends its session cookie along with requests another site's page makes it
 * send (SameSite=Lax lets top-level GETs through, and every port of the host is the same site):
 * such requests must not change anything. Scripts and other non-browser clients keep working.
 */
describe('requests from another site', () => {
  let server: TestApp
  let root: ApiClient
  beforeAll(async () => {
    server = await startTestApp('sqlite')
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
  })
  afterAll(async () => {
    await server?.close()
  })

  const storedAccessToken = async () =>
    (
      await server.context.db
        .selectFrom('users')
        .select('access_token')
        .where('username', '=', 'root')
        .executeTakeFirstOrThrow()
    ).access_token
  const rotate = (headers: Record<string, string>) => root.request('GET', '/api/user/token', { headers })
  const host = () => new URL(server.baseUrl).host

  it('does not rotate the access token for a page of another site or another port', async () => {
    const before = await storedAccessToken()
    const refusals: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:1' },
      { origin: 'http://attacker.example' },
      { origin: `http://${new URL(server.baseUrl).hostname}:1` },
      { origin: 'null' },
    ]
    for (const headers of refusals) {
      const response = await rotate(headers)
      expect(outcome(response), JSON.stringify(headers)).toEqual(REFUSED)
      expect(response.body.message).toMatch(/another site/)
    }
    expect(await storedAccessToken()).toBe(before)
    // The session itself is kept: the user is still signed in.
    expect((await root.get('/api/user/self')).body.success).toBe(true)
  })

  it('refuses other state-changing calls from another site and changes nothing', async () => {
    const count = async () => (await server.context.db.selectFrom('tokens').select('id').execute()).length
    const before = await count()
    const created = await root.request('POST', '/api/token/', {
      json: { name: 'planted', unlimited_quota: true },
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(outcome(created)).toEqual(REFUSED)
    const tested = await root.request('GET', '/api/channel/test', {
      headers: { origin: 'http://attacker.example' },
    })
    expect(outcome(tested)).toEqual(REFUSED)
    expect(await count()).toBe(before)
  })

  it('serves the same origin, typed addresses, read-only calls and clients that are not browsers', async () => {
    const before = await storedAccessToken()
    const allowed: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'same-origin', origin: server.baseUrl },
      { 'sec-fetch-site': 'none' },
      { origin: `http://${host()}` },
      {},
    ]
    for (const headers of allowed) {
      const response = await rotate(headers)
      expect(response.body.success, JSON.stringify(headers)).toBe(true)
    }
    expect(await storedAccessToken()).not.toBe(before)
    const read = await root.request('GET', '/api/user/self', { headers: { 'sec-fetch-site': 'cross-site' } })
    expect(read.body.success).toBe(true)
    // An access token is not sent by the browser on its own: it is not checked for the site.
    const script = new ApiClient(server.baseUrl, ROOT_ACCESS_TOKEN)
    await server.context.db
      .updateTable('users')
      .set({ access_token: ROOT_ACCESS_TOKEN })
      .where('username', '=', 'root')
      .execute()
    const created = await script.request('POST', '/api/token/', {
      json: { name: 'from-a-script', unlimited_quota: true },
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(created.body.success).toBe(true)
  })
})
