import { Role } from '@one-api/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, outcome, REFUSED } from '../../testing/http-client.ts'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'
import {
  createSignedInUser,
  logsOfType,
  readUser,
  signInAsRoot,
  snapshotTable,
  type TestUser,
} from '../../testing/user-fixtures.ts'

describe.each(testDialects())('creating, editing and deleting users on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  let admin: TestUser
  let member: TestUser
  beforeAll(async () => {
    server = await startTestApp(dialect)
    root = await signInAsRoot(server)
    admin = await createSignedInUser(server, 'editadmin', Role.Admin)
    member = await createSignedInUser(server, 'editmember')
  })
  afterAll(async () => {
    await server?.close()
  })

  const canSignIn = async (username: string, password: string) =>
    (await new ApiClient(server.baseUrl).post('/api/user/login', { username, password })).body.success ===
    true

  it('creates a normal user with a default token, whatever role the body asks for', async () => {
    const response = await admin.client.post('/api/user/', {
      username: 'made',
      display_name: 'Made Here',
      password: 'password-456',
      role: 100,
    })
    expect(response.status).toBe(200)
    expect(response.body.data).toMatchObject({
      username: 'made',
      display_name: 'Made Here',
      role: 1,
      status: 1,
    })
    expect(response.body.data).not.toHaveProperty('password')
    expect(await canSignIn('made', 'password-456')).toBe(true)
    const tokens = await server.context.db
      .selectFrom('tokens')
      .select('name')
      .where('user_id', '=', response.body.data.id)
      .execute()
    expect(tokens).toEqual([{ name: 'default' }])
    const plain = await admin.client.post('/api/user/', { username: 'plain', password: 'password-456' })
    expect(plain.body.data.display_name).toBe('plain')
  })

  it('refuses bad new users without creating anything', async () => {
    const before = await snapshotTable(server, 'users')
    const cases: Array<[unknown, RegExp]> = [
      [{ password: 'password-456' }, /username is required/],
      [{ username: 'nopass' }, /password is required/],
      [{ username: 'short', password: '1234567' }, /at least 8/],
      [{ username: 'long', password: 'x'.repeat(21) }, /at most 20/],
      [{ username: 'thirteenchars', password: 'password-456' }, /at most 12/],
      [{ username: 12, password: 'password-456' }, /username/],
      [{ username: 'editmember', password: 'password-456' }, /already taken/],
    ]
    for (const [body, message] of cases) {
      const response = await admin.client.post('/api/user/', body)
      expect(outcome(response), JSON.stringify(body)).toEqual(REFUSED)
      expect(response.body).toMatchObject({ success: false, message: expect.stringMatching(message) })
    }
    const malformed = await admin.client.request('POST', '/api/user/', { raw: '{"username":' })
    expect(outcome(malformed)).toEqual(REFUSED)
    expect(malformed.body.message).toMatch(/not valid JSON/)
    expect(await snapshotTable(server, 'users')).toEqual(before)
  })

  it('edits another user, keeps a blank password, and logs a quota change', async () => {
    const target = await createSignedInUser(server, 'editee')
    const response = await admin.client.put('/api/user/', {
      id: target.id,
      username: 'edited',
      display_name: 'Edited Name',
      password: '',
      email: 'edited@example.com',
      group: 'vip',
      quota: 5000,
      role: 100,
      status: 2,
    })
    expect(response.status).toBe(200)
    expect(response.body.data).toMatchObject({
      id: target.id,
      username: 'edited',
      display_name: 'Edited Name',
      email: 'edited@example.com',
      group: 'vip',
      quota: 5000,
      role: 1,
      status: 1,
    })
    expect(await canSignIn('edited', 'password-123')).toBe(true)
    const logs = (await logsOfType(server, 3)).filter((log) => log.user_id === target.id)
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({
      username: 'edited',
      content: 'Administrator changed the user quota from $0.000000 quota to $0.010000 quota',
    })

    const samequota = { id: target.id, username: 'edited', group: 'vip', quota: 5000 }
    const renamed = await admin.client.put('/api/user/', { ...samequota, password: 'fresh-pass-1' })
    expect(renamed.status).toBe(200)
    expect(await canSignIn('edited', 'fresh-pass-1')).toBe(true)
    expect((await logsOfType(server, 3)).filter((log) => log.user_id === target.id)).toHaveLength(1)
  })

  it('refuses bad edits without changing anything', async () => {
    await server.context.db
      .updateTable('users')
      .set({ email: 'taken@example.com' })
      .where('id', '=', admin.id)
      .execute()
    const valid = { id: member.id, username: 'editmember', group: 'default', quota: 10 }
    const before = await snapshotTable(server, 'users')
    const logsBefore = (await logsOfType(server, 3)).length
    const cases: Array<[unknown, RegExp]> = [
      [{ ...valid, group: 'nosuchgroup' }, /Group "nosuchgroup" does not exist/],
      [{ ...valid, quota: 1.5 }, /quota must be an integer/],
      [{ ...valid, quota: '100' }, /quota/],
      [{ ...valid, quota: -5 }, /must not be negative/],
      [{ ...valid, quota: 1e20 }, /quota/],
      [{ ...valid, quota: null }, /quota must be an integer/],
      [{ ...valid, id: undefined }, /id/],
      [{ ...valid, id: 'x' }, /id/],
      [{ ...valid, id: 999999 }, /not found/],
      [{ ...valid, username: 'root' }, /already taken/],
      [{ ...valid, email: 'taken@example.com' }, /already used/],
      [{ ...valid, email: 'not-an-email' }, /email/],
      [{ ...valid, password: 'short' }, /at least 8/],
      [{ ...valid, username: '' }, /username/],
    ]
    for (const [body, message] of cases) {
      const response = await admin.client.put('/api/user/', body)
      expect(outcome(response), JSON.stringify(body)).toEqual(REFUSED)
      expect(response.body).toMatchObject({ success: false, message: expect.stringMatching(message) })
    }
    const malformed = await admin.client.request('PUT', '/api/user/', { raw: '[1,' })
    expect(outcome(malformed)).toEqual(REFUSED)
    expect(await snapshotTable(server, 'users')).toEqual(before)
    expect(await logsOfType(server, 3)).toHaveLength(logsBefore)
  })

  const quotaLogsOf = async (userId: number) =>
    (await logsOfType(server, 3)).filter((log) => log.user_id === userId)
  const setStoredQuota = (userId: number, values: { quota: number; used_quota?: number }) =>
    server.context.db.updateTable('users').set(values).where('id', '=', userId).execute()

  it('keeps what a user spent since the edit form loaded when the form leaves quota out', async () => {
    const target = await createSignedInUser(server, 'spender')
    await setStoredQuota(target.id, { quota: 1000 })
    const loaded = (await admin.client.get(`/api/user/${target.id}`)).body.data
    const form = { id: target.id, username: loaded.username, group: loaded.group, quota: loaded.quota }
    expect(form.quota).toBe(1000)
    // Requests spend 100 after the form loaded, as the ledger would.
    await setStoredQuota(target.id, { quota: 900, used_quota: 100 })
    const { quota: _loaded, ...withoutQuota } = form
    const renamed = await admin.client.put('/api/user/', { ...withoutQuota, display_name: 'Big Spender' })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    expect(renamed.body.data).toMatchObject({ display_name: 'Big Spender', quota: 900, used_quota: 100 })
    expect(Number((await readUser(server, target.id)).quota)).toBe(900)
    expect(await quotaLogsOf(target.id)).toEqual([])
    // A form that sends the quota still sets it and logs it, as one-api's clients (which always
    // send it) expect.
    const reset = await admin.client.put('/api/user/', form)
    expect(reset.status).toBe(200)
    expect(reset.body.data).toMatchObject({ display_name: 'Big Spender', quota: 1000, used_quota: 100 })
    expect(await quotaLogsOf(target.id)).toMatchObject([
      { content: 'Administrator changed the user quota from $0.001800 quota to $0.002000 quota' },
    ])
  })

  it('checks quota only when it is sent, so an edit may leave a negative balance alone', async () => {
    const target = await createSignedInUser(server, 'indebted')
    await setStoredQuota(target.id, { quota: -50 })
    const form = { id: target.id, username: 'indebted', group: 'default' }
    const cases: Array<[unknown, RegExp]> = [
      [-5, /must not be negative/],
      [1.5, /quota must be an integer/],
      ['100', /quota must be an integer/],
      [null, /quota must be an integer/],
    ]
    const before = await snapshotTable(server, 'users')
    for (const [quota, message] of cases) {
      const response = await admin.client.put('/api/user/', { ...form, display_name: 'changed', quota })
      expect(outcome(response), JSON.stringify(quota)).toEqual(REFUSED)
      expect(response.body).toMatchObject({ success: false, message: expect.stringMatching(message) })
    }
    expect(await snapshotTable(server, 'users')).toEqual(before)
    const renamed = await admin.client.put('/api/user/', { ...form, display_name: 'Still Indebted' })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    expect(renamed.body.data).toMatchObject({ display_name: 'Still Indebted', quota: -50 })
    expect(await quotaLogsOf(target.id)).toEqual([])
  })

  it('lets an administrator edit and delete only users of a lower role', async () => {
    const peer = await createSignedInUser(server, 'editpeer', Role.Admin)
    const edit = (client: ApiClient, user: { id: number; username: string }) =>
      client.put('/api/user/', { id: user.id, username: user.username, group: 'default', quota: 1 })
    expect(outcome(await edit(admin.client, peer))).toEqual(REFUSED)
    expect(outcome(await edit(admin.client, admin))).toEqual(REFUSED)
    expect(outcome(await edit(admin.client, { id: 1, username: 'root' }))).toEqual(REFUSED)
    expect(outcome(await admin.client.delete(`/api/user/${peer.id}`))).toEqual(REFUSED)
    expect(outcome(await admin.client.delete('/api/user/1'))).toEqual(REFUSED)
    expect((await readUser(server, peer.id)).status).toBe(1)
    expect((await edit(root, peer)).status).toBe(200)
    expect(Number((await readUser(server, peer.id)).quota)).toBe(1)
    const rootDelete = await root.delete('/api/user/1')
    expect(outcome(rootDelete)).toEqual(REFUSED)
    expect(rootDelete.body.message).toMatch(/cannot be deleted/)
  })

  it('soft-deletes a user, frees the username and reports success', async () => {
    const doomed = await createSignedInUser(server, 'doomed')
    const response = await admin.client.delete(`/api/user/${doomed.id}`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true, message: '' })
    const row = await readUser(server, doomed.id)
    expect(row.status).toBe(3)
    expect(row.access_token).toBeNull()
    expect((await doomed.client.get('/api/user/self')).status).toBe(401)
    expect(await canSignIn('doomed', 'password-123')).toBe(false)
    expect(outcome(await admin.client.get(`/api/user/${doomed.id}`))).toEqual(REFUSED)
    expect(outcome(await admin.client.delete(`/api/user/${doomed.id}`))).toEqual(REFUSED)
    expect(outcome(await admin.client.delete('/api/user/abc'))).toEqual(REFUSED)
    expect(
      (await admin.client.post('/api/user/', { username: 'doomed', password: 'password-789' })).status,
    ).toBe(200)
  })

  it('keeps user editing from anonymous callers and normal users', async () => {
    const anonymous = new ApiClient(server.baseUrl)
    const body = { id: member.id, username: 'editmember', group: 'default', quota: 1 }
    const calls: Array<(client: ApiClient) => Promise<{ status: number }>> = [
      (client) => client.post('/api/user/', { username: 'sneaky', password: 'password-456' }),
      (client) => client.put('/api/user/', body),
      (client) => client.delete(`/api/user/${admin.id}`),
    ]
    for (const call of calls) {
      expect((await call(anonymous)).status).toBe(401)
      expect(outcome(await call(member.client))).toEqual(REFUSED)
    }
    expect((await readUser(server, admin.id)).status).toBe(1)
    expect(
      await server.context.db.selectFrom('users').where('username', '=', 'sneaky').selectAll().execute(),
    ).toEqual([])
  })
})
