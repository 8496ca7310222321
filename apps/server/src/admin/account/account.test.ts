import { Role } from '@one-api/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, outcome, REFUSED, registerAndLogin } from '../../testing/http-client.ts'
import { ROOT_ACCESS_TOKEN, ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'

describe.each(testDialects())('accounts on %s', (dialect) => {
  let server: TestApp
  beforeAll(async () => {
    server = await startTestApp(dialect, { INITIAL_ROOT_TOKEN: 'sk-InitialRootToken0001' })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('creates root on first start with the configured password, access token and token', async () => {
    const root = new ApiClient(server.baseUrl)
    const login = await root.login('root', ROOT_PASSWORD)
    expect(login.body.data).toMatchObject({ username: 'root', role: 100, status: 1 })
    const self = await root.get('/api/user/self')
    expect(self.body.data.quota).toBe(500_000_000_000_000)
    expect(self.body.data).not.toHaveProperty('password')
    expect(self.body.data).not.toHaveProperty('access_token')
    const byAccessToken = await new ApiClient(server.baseUrl, ROOT_ACCESS_TOKEN).get('/api/user/self')
    expect(byAccessToken.body.data.username).toBe('root')
    const token = await server.context.db
      .selectFrom('tokens')
      .selectAll()
      .where('key', '=', 'InitialRootToken0001')
      .executeTakeFirst()
    expect(token).toMatchObject({ user_id: self.body.data.id, expired_time: -1 })
  })

  it('refuses a wrong password and an unknown user with the same message, as 200 (not an expired session)', async () => {
    const client = new ApiClient(server.baseUrl)
    const wrong = await client.post('/api/user/login', { username: 'root', password: 'not-the-password' })
    const unknown = await client.post('/api/user/login', { username: 'nobody', password: 'whatever1' })
    expect(outcome(wrong)).toEqual(REFUSED)
    expect(outcome(unknown)).toEqual(REFUSED)
    expect(wrong.body).toEqual({ success: false, message: unknown.body.message })
    expect(client.hasSession()).toBe(false)
  })

  it('signs in by email as well as by username', async () => {
    await registerAndLogin(server.baseUrl, 'mailer')
    await server.context.db
      .updateTable('users')
      .set({ email: 'mailer@example.com' })
      .where('username', '=', 'mailer')
      .execute()
    const client = new ApiClient(server.baseUrl)
    const response = await client.post('/api/user/login', {
      username: 'mailer@example.com',
      password: 'password-123',
    })
    expect(response.body.data.username).toBe('mailer')
  })

  it('registers a user with a default token and gives invite rewards to both sides', async () => {
    const root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    for (const [key, value] of [
      ['QuotaForNewUser', '100'],
      ['QuotaForInviter', '30'],
      ['QuotaForInvitee', '20'],
    ]) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true)
    }
    const inviter = await registerAndLogin(server.baseUrl, 'inviter')
    const affCode = (await inviter.get('/api/user/aff')).body.data
    expect(affCode).toMatch(/^[0-9A-Za-z]{4,}$/)
    const invitee = new ApiClient(server.baseUrl)
    const registered = await invitee.post('/api/user/register', {
      username: 'invitee',
      password: 'password-123',
      aff_code: affCode,
    })
    expect(registered.status).toBe(200)
    await invitee.login('invitee', 'password-123')
    expect((await invitee.get('/api/user/self')).body.data.quota).toBe(120)
    expect((await inviter.get('/api/user/self')).body.data.quota).toBe(130)
    const tokens = await server.context.db
      .selectFrom('tokens')
      .innerJoin('users', 'users.id', 'tokens.user_id')
      .select(['tokens.name', 'tokens.unlimited_quota', 'tokens.expired_time', 'tokens.key'])
      .where('users.username', '=', 'invitee')
      .execute()
    expect(tokens).toHaveLength(1)
    expect(tokens[0]).toMatchObject({ name: 'default', expired_time: -1 })
    expect(Boolean(tokens[0].unlimited_quota)).toBe(true)
    expect(tokens[0].key).toMatch(/^[0-9A-Za-z]{48}$/)
    const logs = await server.context.logDb
      .selectFrom('logs')
      .selectAll()
      .where('username', '=', 'invitee')
      .execute()
    expect(logs.map((log) => log.type)).toEqual([4, 4])
  })

  it('rejects bad registrations without creating anything', async () => {
    const client = new ApiClient(server.baseUrl)
    const before = await server.context.db
      .selectFrom('users')
      .select(({ fn }) => fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
    const cases: Array<[unknown, RegExp]> = [
      [{ username: 'shortpass', password: '123' }, /at least 8/],
      [{ username: 'waytoolongusername', password: 'password-123' }, /at most 12/],
      [{ password: 'password-123' }, /username/],
      [{ username: 42, password: 'password-123' }, /username/],
      [{ username: 'root', password: 'password-123' }, /already taken/],
    ]
    for (const [body, message] of cases) {
      const response = await client.post('/api/user/register', body)
      expect(outcome(response), JSON.stringify(body)).toEqual(REFUSED)
      expect(response.body.success).toBe(false)
      expect(response.body.message).toMatch(message)
    }
    const malformed = await client.request('POST', '/api/user/register', { raw: '{"username": "x",' })
    expect(outcome(malformed)).toEqual(REFUSED)
    expect(malformed.body.message).toMatch(/not valid JSON/)
    const oversized = await client.post('/api/user/register', {
      username: 'big',
      password: 'x'.repeat(2 * 1024 * 1024),
    })
    expect(outcome(oversized)).toEqual(REFUSED)
    const after = await server.context.db
      .selectFrom('users')
      .select(({ fn }) => fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
    expect(Number(after.count)).toBe(Number(before.count))
  })

  it('refuses registration when it is switched off', async () => {
    const root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    await root.put('/api/option/', { key: 'RegisterEnabled', value: 'false' })
    const response = await new ApiClient(server.baseUrl).post('/api/user/register', {
      username: 'late',
      password: 'password-123',
    })
    expect(outcome(response)).toEqual(REFUSED)
    await root.put('/api/option/', { key: 'RegisterEnabled', value: 'true' })
  })

  it('lets a user edit their profile, regenerate an access token, sign out and delete the account', async () => {
    const user = await registerAndLogin(server.baseUrl, 'editor')
    const updated = await user.put('/api/user/self', { display_name: 'Edited', password: 'new-password-1' })
    expect(updated.body.data.display_name).toBe('Edited')
    const accessToken = (await user.get('/api/user/token')).body.data
    expect(accessToken).toMatch(/^[0-9a-f]{32}$/)
    expect((await new ApiClient(server.baseUrl, accessToken).get('/api/user/self')).body.data.username).toBe(
      'editor',
    )
    const badUpdate = await user.put('/api/user/self', { display_name: 12 })
    expect(outcome(badUpdate)).toEqual(REFUSED)
    await user.get('/api/user/logout')
    expect((await user.get('/api/user/self')).status).toBe(401)
    await user.login('editor', 'new-password-1')
    expect((await user.delete('/api/user/self')).body.success).toBe(true)
    const again = new ApiClient(server.baseUrl)
    expect(
      outcome(await again.post('/api/user/login', { username: 'editor', password: 'new-password-1' })),
    ).toEqual(REFUSED)
    expect((await new ApiClient(server.baseUrl, accessToken).get('/api/user/self')).status).toBe(401)
  })

  it('cuts off a disabled or demoted user on their very next request', async () => {
    const user = await registerAndLogin(server.baseUrl, 'victim')
    expect((await user.get('/api/user/self')).status).toBe(200)
    await server.context.db.updateTable('users').set({ status: 2 }).where('username', '=', 'victim').execute()
    const response = await user.get('/api/user/self')
    expect(response.status).toBe(401)
    expect(response.body.message).toMatch(/disabled/)

    const admin = await registerAndLogin(server.baseUrl, 'demoted')
    await server.context.db
      .updateTable('users')
      .set({ role: Role.Root })
      .where('username', '=', 'demoted')
      .execute()
    expect((await admin.get('/api/option/')).status).toBe(200)
    await server.context.db
      .updateTable('users')
      .set({ role: Role.Common })
      .where('username', '=', 'demoted')
      .execute()
    expect(outcome(await admin.get('/api/option/'))).toEqual(REFUSED)
  })

  it('never lets root delete itself', async () => {
    const root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    expect(outcome(await root.delete('/api/user/self'))).toEqual(REFUSED)
  })
})

describe('registration behind Turnstile', () => {
  it('requires a bot-check token that the verification service accepts', async () => {
    const { createServer } = await import('node:http')
    const verifier = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => {
        body += chunk
      })
      request.on('end', () => {
        const form = new URLSearchParams(body)
        response.setHeader('content-type', 'application/json')
        response.end(
          JSON.stringify({
            success: form.get('response') === 'good-token' && form.get('secret') === 'site-secret',
          }),
        )
      })
    })
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve))
    const port = (verifier.address() as { port: number }).port
    const server = await startTestApp('sqlite', {
      TURNSTILE_VERIFY_URL: `http://127.0.0.1:${port}/siteverify`,
    })
    try {
      const root = new ApiClient(server.baseUrl)
      await root.login('root', ROOT_PASSWORD)
      await root.put('/api/option/', { key: 'TurnstileSiteKey', value: 'site-key' })
      await root.put('/api/option/', { key: 'TurnstileSecretKey', value: 'site-secret' })
      expect((await root.put('/api/option/', { key: 'TurnstileCheckEnabled', value: 'true' })).status).toBe(
        200,
      )
      expect((await new ApiClient(server.baseUrl).get('/api/status')).body.data.turnstile_check).toBe(true)
      const client = new ApiClient(server.baseUrl)
      const body = { username: 'botcheck', password: 'password-123' }
      expect(outcome(await client.post('/api/user/register', body))).toEqual(REFUSED)
      expect(outcome(await client.post('/api/user/register?turnstile=bad-token', body))).toEqual(REFUSED)
      expect((await client.post('/api/user/register?turnstile=good-token', body)).status).toBe(200)
    } finally {
      await server.close()
      verifier.close()
    }
  })
})
