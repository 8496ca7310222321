import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, registerAndLogin } from '../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'
import { POSTGRES_URL, REDIS_URL, type TestDialect, testDialects } from '../testing/test-databases.ts'

/** A second browser holding a copy of `client`'s session cookie (a stolen or shared cookie). */
function copyOf(client: ApiClient, baseUrl = client.baseUrl): ApiClient {
  const copy = new ApiClient(baseUrl)
  ;(copy as unknown as { cookie: string }).cookie = (client as unknown as { cookie: string }).cookie
  return copy
}

async function signedIn(client: ApiClient): Promise<boolean> {
  const response = await client.get('/api/user/self')
  return response.status === 200 && response.body.success === true
}

async function rootClient(baseUrl: string): Promise<ApiClient> {
  const root = new ApiClient(baseUrl)
  await root.login('root', ROOT_PASSWORD)
  return root
}

describe.each(testDialects())('revocable sessions on %s', (dialect) => {
  let server: TestApp
  beforeAll(async () => {
    server = await startTestApp(dialect)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('ends a copied cookie when its owner signs out', async () => {
    const alice = await registerAndLogin(server.baseUrl, 'alice')
    const laptop = copyOf(alice)
    const secondDevice = new ApiClient(server.baseUrl)
    await secondDevice.login('alice', 'password-123')
    expect(await signedIn(laptop)).toBe(true)
    expect((await alice.get('/api/user/logout')).body.success).toBe(true)
    const refused = await laptop.get('/api/user/self')
    expect(refused.status).toBe(401)
    expect(refused.body.success).toBe(false)
    // Signing out ends every session of the user, the other device's too.
    expect(await signedIn(secondDevice)).toBe(false)
    // Signing in again works, and a stale cookie signing out does not end the new session.
    const again = new ApiClient(server.baseUrl)
    await again.login('alice', 'password-123')
    await laptop.get('/api/user/logout')
    expect(await signedIn(again)).toBe(true)
  })

  it('a sign-out another site makes the browser send clears only that cookie', async () => {
    const uma = await registerAndLogin(server.baseUrl, 'uma')
    const otherDevice = copyOf(uma)
    const crossSite = await uma.request('GET', '/api/user/logout', {
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(crossSite.body.success).toBe(true)
    expect(uma.hasSession()).toBe(false)
    expect(await signedIn(otherDevice)).toBe(true)
  })

  it('ends the other sessions when the password changes, keeping the one that changed it', async () => {
    const bob = await registerAndLogin(server.baseUrl, 'bob')
    const other = copyOf(bob)
    const changed = await bob.put('/api/user/self', { password: 'new-password-456' })
    expect(changed.body.success).toBe(true)
    expect(await signedIn(bob)).toBe(true)
    expect(await signedIn(other)).toBe(false)
    await new ApiClient(server.baseUrl).login('bob', 'new-password-456')
  })

  it('ends the sessions of a user an administrator disables, and re-enabling does not revive them', async () => {
    const carol = await registerAndLogin(server.baseUrl, 'carol')
    const root = await rootClient(server.baseUrl)
    await root.post('/api/user/manage', { username: 'carol', action: 'disable' })
    expect(await signedIn(carol)).toBe(false)
    await root.post('/api/user/manage', { username: 'carol', action: 'enable' })
    expect(await signedIn(carol)).toBe(false)
    await new ApiClient(server.baseUrl).login('carol', 'password-123')
  })

  it('ends the sessions of a user who deletes the account', async () => {
    const dave = await registerAndLogin(server.baseUrl, 'dave')
    const copy = copyOf(dave)
    expect((await dave.delete('/api/user/self')).body.success).toBe(true)
    expect(await signedIn(copy)).toBe(false)
  })

  it('lets an administrator sign a user out everywhere, within the rank rule', async () => {
    const erin = await registerAndLogin(server.baseUrl, 'erin')
    const erinId = (await erin.get('/api/user/self')).body.data.id
    const admin = await registerAndLogin(server.baseUrl, 'erinadmin')
    await server.context.db
      .updateTable('users')
      .set({ role: 10 })
      .where('username', '=', 'erinadmin')
      .execute()
    const rootId = (await (await rootClient(server.baseUrl)).get('/api/user/self')).body.data.id
    const outranked = await admin.post(`/api/user/${rootId}/sessions/revoke`)
    expect(outranked.body).toMatchObject({ success: false })
    expect(outranked.body.message).toMatch(/Permission denied/)
    const user = await registerAndLogin(server.baseUrl, 'erinpeer')
    const notAdmin = await user.post(`/api/user/${erinId}/sessions/revoke`)
    expect(notAdmin.body).toMatchObject({
      success: false,
      message: expect.stringMatching(/Permission denied/),
    })
    expect(await signedIn(erin)).toBe(true)
    const revoked = await admin.post(`/api/user/${erinId}/sessions/revoke`)
    expect(revoked.body).toMatchObject({ success: true })
    expect(await signedIn(erin)).toBe(false)
    expect(await signedIn(admin)).toBe(true)
    expect((await admin.post('/api/user/999999/sessions/revoke')).body.success).toBe(false)
  })

  it('revokes the previous access token when a new one is generated', async () => {
    const frank = await registerAndLogin(server.baseUrl, 'frank')
    const first = (await frank.get('/api/user/token')).body.data as string
    expect(await signedIn(new ApiClient(server.baseUrl, first))).toBe(true)
    const second = (await frank.get('/api/user/token')).body.data as string
    expect(second).not.toBe(first)
    expect((await new ApiClient(server.baseUrl, first).get('/api/user/self')).status).toBe(401)
    expect(await signedIn(new ApiClient(server.baseUrl, second))).toBe(true)
  })
})

const twoNodeDialect: TestDialect = POSTGRES_URL ? 'postgres' : 'sqlite'

describe.skipIf(!REDIS_URL)(`revocable sessions across two nodes (${twoNodeDialect} + Redis)`, () => {
  let first: TestApp
  let second: TestApp
  beforeAll(async () => {
    first = await startTestApp(twoNodeDialect, { REDIS_CONN_STRING: REDIS_URL ?? '' })
    second = await startTestApp(
      twoNodeDialect,
      { REDIS_CONN_STRING: REDIS_URL ?? '' },
      { shareDatabaseWith: first },
    )
  })
  afterAll(async () => {
    await second?.close()
    await first?.close()
  })

  it('a sign-out on one node ends the same cookie on the other at its next request', async () => {
    const grace = await registerAndLogin(first.baseUrl, 'grace')
    const onSecond = copyOf(grace, second.baseUrl)
    expect(await signedIn(onSecond)).toBe(true)
    await grace.get('/api/user/logout')
    expect(await signedIn(onSecond)).toBe(false)
  })

  it("an administrator's sign-out-everywhere on one node ends sessions held on the other", async () => {
    const heidi = await registerAndLogin(second.baseUrl, 'heidi')
    const heidiId = (await heidi.get('/api/user/self')).body.data.id
    expect(await signedIn(heidi)).toBe(true)
    const root = await rootClient(first.baseUrl)
    expect((await root.post(`/api/user/${heidiId}/sessions/revoke`)).body.success).toBe(true)
    expect(await signedIn(heidi)).toBe(false)
    expect(await signedIn(copyOf(heidi, first.baseUrl))).toBe(false)
  })
})
