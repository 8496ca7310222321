import { Role } from '@one-api/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, outcome, REFUSED } from '../../testing/http-client.ts'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'
import {
  createSignedInUser,
  insertTestUser,
  signInAsRoot,
  type TestUser,
} from '../../testing/user-fixtures.ts'

describe.each(testDialects())('user lists and search on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  let admin: TestUser
  let member: TestUser
  beforeAll(async () => {
    server = await startTestApp(dialect, { TRUST_PROXY: 'true' })
    root = await signInAsRoot(server)
    admin = await createSignedInUser(server, 'listadmin', Role.Admin)
    member = await createSignedInUser(server, 'listmember')
  })
  afterAll(async () => {
    await server?.close()
  })

  it('pages users ten at a time, newest first or by a column, hiding deleted users and secrets', async () => {
    for (let index = 0; index < 12; index++) {
      await insertTestUser(server, {
        username: `page${index}`,
        quota: (index * 7) % 12,
        request_count: index,
        status: index === 5 ? 3 : 1,
      })
    }
    const first = await admin.client.get('/api/user/?p=0')
    expect(first.status).toBe(200)
    expect(first.body.success).toBe(true)
    expect(first.body.data).toHaveLength(10)
    expect(first.body.data[0].username).toBe('page11')
    const ids = first.body.data.map((user: { id: number }) => user.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    for (const user of first.body.data) {
      expect(user).not.toHaveProperty('password')
      expect(user).not.toHaveProperty('access_token')
    }
    const second = await admin.client.get('/api/user/?p=1')
    const all = [...first.body.data, ...second.body.data]
    // 11 live fixtures + root + the two signed-in users; page5 is deleted.
    expect(all).toHaveLength(14)
    expect(all.map((user) => user.username)).not.toContain('page5')
    expect((await admin.client.get('/api/user/?p=2')).body.data).toEqual([])

    const byQuota = (await admin.client.get('/api/user/?p=0&order=quota')).body.data
    expect(byQuota[0].username).toBe('root')
    const fixtureQuotas = byQuota.slice(1).map((user: { quota: number }) => user.quota)
    expect(fixtureQuotas).toEqual([...fixtureQuotas].sort((a, b) => b - a))
    const byRequests = (await admin.client.get('/api/user/?order=request_count')).body.data
    expect(byRequests[0].username).toBe('page11')
    const unknownOrder = (await admin.client.get('/api/user/?order=password')).body.data
    expect(unknownOrder.map((user: { id: number }) => user.id)).toEqual(ids)
  })

  it('refuses a page that is not a number', async () => {
    for (const page of ['abc', '-1', '1.5']) {
      const response = await admin.client.get(`/api/user/?p=${page}`)
      expect(outcome(response), page).toEqual(REFUSED)
      expect(response.body).toMatchObject({ success: false, message: expect.stringMatching(/page/) })
    }
  })

  it('searches by exact id, name prefixes and the last sign-in address', async () => {
    const alice = await insertTestUser(server, {
      username: 'alice_s',
      email: 'wonder@example.com',
      display_name: 'Rabbit',
      last_login_ip: '192.0.2.10',
    })
    await insertTestUser(server, { username: 'alicia', last_login_ip: '192.0.2.11' })
    await insertTestUser(server, { username: 'bob_s', status: 3, last_login_ip: '192.0.2.10' })
    const names = async (query: string) => {
      const response = await admin.client.get(`/api/user/search?${query}`)
      expect(response.status, query).toBe(200)
      return response.body.data.map((user: { username: string }) => user.username).sort()
    }
    expect(await names('keyword=ali')).toEqual(['alice_s', 'alicia'])
    expect(await names('keyword=%20%20ali%20')).toEqual(['alice_s', 'alicia'])
    expect(await names('keyword=ALI')).toEqual(['alice_s', 'alicia'])
    expect(await names('keyword=wonder')).toEqual(['alice_s'])
    expect(await names('keyword=Rabb')).toEqual(['alice_s'])
    expect(await names(`keyword=${alice}`)).toEqual(['alice_s'])
    expect(await names('keyword=lice')).toEqual([])
    // Wildcards are literal characters, not patterns.
    expect(await names('keyword=%25')).toEqual([])
    expect(await names('keyword=alice%5F')).toEqual(['alice_s'])
    expect(await names('ip=192.0.2.10')).toEqual(['alice_s'])
    expect(await names('keyword=alicia&ip=192.0.2.10')).toEqual([])
    const response = await admin.client.get('/api/user/search?keyword=alice')
    expect(response.body.data[0]).not.toHaveProperty('password')
  })

  it('returns at most 100 search results', async () => {
    const rows = Array.from({ length: 105 }, (_, index) => `many${index}`)
    for (const username of rows) await insertTestUser(server, { username })
    const response = await admin.client.get('/api/user/search?keyword=many')
    expect(response.body.data).toHaveLength(100)
  })

  it('lists users sharing a last sign-in address, grouped by address', async () => {
    await server.context.db.updateTable('users').set({ last_login_ip: '' }).execute()
    const twin = await createSignedInUser(server, 'twin')
    // The address is recorded at sign-in; behind a trusted proxy it is the forwarded one.
    const login = await twin.client.request('POST', '/api/user/login', {
      json: { username: 'twin', password: 'password-123' },
      headers: { 'x-forwarded-for': '10.0.0.1' },
    })
    expect(login.status).toBe(200)
    const expected = [twin.id]
    expected.push(await insertTestUser(server, { username: 'shareA1', last_login_ip: '10.0.0.1' }))
    expected.push(await insertTestUser(server, { username: 'shareA2', last_login_ip: '10.0.0.1' }))
    await insertTestUser(server, { username: 'loneB', last_login_ip: '10.0.0.2' })
    await insertTestUser(server, { username: 'loneC', last_login_ip: '10.0.0.3' })
    await insertTestUser(server, { username: 'goneC', last_login_ip: '10.0.0.3', status: 3 })
    for (let index = 0; index < 9; index++) {
      expected.push(await insertTestUser(server, { username: `shareZ${index}`, last_login_ip: '10.0.0.9' }))
    }
    const first = await admin.client.get('/api/user/sameip?p=0')
    const second = await admin.client.get('/api/user/sameip?p=1')
    expect(first.body.data).toHaveLength(10)
    const seen = [...first.body.data, ...second.body.data]
    expect(seen.map((user: { id: number }) => user.id)).toEqual(expected)
    expect(seen[0]).toMatchObject({ username: 'twin', last_login_ip: '10.0.0.1' })
    expect(seen[0]).not.toHaveProperty('password')
    expect(outcome(await admin.client.get('/api/user/sameip?p=x'))).toEqual(REFUSED)
  })

  it('shows one user to a higher role only', async () => {
    const view = await admin.client.get(`/api/user/${member.id}`)
    expect(view.status).toBe(200)
    expect(view.body.data).toMatchObject({ id: member.id, username: 'listmember', role: 1 })
    expect(view.body.data).not.toHaveProperty('password')
    expect(view.body.data).not.toHaveProperty('access_token')
    const peer = await createSignedInUser(server, 'listpeer', Role.Admin)
    expect(outcome(await admin.client.get(`/api/user/${peer.id}`))).toEqual(REFUSED)
    expect(outcome(await admin.client.get(`/api/user/${admin.id}`))).toEqual(REFUSED)
    expect(outcome(await admin.client.get('/api/user/1'))).toEqual(REFUSED)
    expect((await root.get(`/api/user/${peer.id}`)).body.data.role).toBe(10)
    expect((await root.get('/api/user/1')).body.data.username).toBe('root')
    expect(outcome(await admin.client.get('/api/user/999999'))).toEqual(REFUSED)
    const deleted = await insertTestUser(server, { username: 'ghost', status: 3 })
    expect(outcome(await admin.client.get(`/api/user/${deleted}`))).toEqual(REFUSED)
    for (const id of ['abc', '1.5', '0', '99999999999']) {
      const response = await admin.client.get(`/api/user/${id}`)
      expect(outcome(response), id).toEqual(REFUSED)
      expect(response.body.message).toMatch(/id must be a positive integer/)
    }
  })

  it("lists the enabled models of the user's group, distinct and sorted", async () => {
    await server.context.db
      .insertInto('abilities')
      .values([
        { group: 'default', model: 'gpt-4o', channel_id: 1, enabled: true, priority: 0 },
        { group: 'default', model: 'claude-3', channel_id: 1, enabled: true, priority: 0 },
        { group: 'default', model: 'gpt-4o', channel_id: 2, enabled: true, priority: 0 },
        { group: 'default', model: 'disabled-model', channel_id: 3, enabled: false, priority: 0 },
        { group: 'vip', model: 'vip-model', channel_id: 4, enabled: true, priority: 0 },
      ])
      .execute()
    const models = await member.client.get('/api/user/available_models')
    expect(models.body).toEqual({ success: true, message: '', data: ['claude-3', 'gpt-4o'] })
    await server.context.db.updateTable('users').set({ group: 'vip' }).where('id', '=', member.id).execute()
    expect((await member.client.get('/api/user/available_models')).body.data).toEqual(['vip-model'])
    expect((await new ApiClient(server.baseUrl).get('/api/user/available_models')).status).toBe(401)
  })

  it('lists the groups of GroupRatio', async () => {
    expect((await admin.client.get('/api/group/')).body.data).toEqual(['default', 'vip', 'svip'])
    const update = await root.put('/api/option/', { key: 'GroupRatio', value: '{"default":1,"team":0.5}' })
    expect(update.body.success).toBe(true)
    expect((await admin.client.get('/api/group/')).body.data).toEqual(['default', 'team'])
  })

  it('keeps the administrator views from anonymous callers and normal users', async () => {
    const anonymous = new ApiClient(server.baseUrl)
    const paths = ['/api/user/', '/api/user/search?keyword=a', '/api/user/sameip', `/api/user/${member.id}`]
    for (const path of [...paths, '/api/group/']) {
      expect((await anonymous.get(path)).status, path).toBe(401)
      const forbidden = await member.client.get(path)
      expect(outcome(forbidden), path).toEqual(REFUSED)
    }
  })
})
