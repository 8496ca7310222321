import { Role } from '@one-api/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, outcome, REFUSED } from '../../testing/http-client.ts'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'
import {
  createSignedInUser,
  signInAsRoot,
  snapshotTable,
  type TestUser,
} from '../../testing/user-fixtures.ts'

describe.each(testDialects())('redemption codes on %s', (dialect) => {
  let server: TestApp
  let admin: TestUser
  let member: TestUser
  beforeAll(async () => {
    server = await startTestApp(dialect)
    await signInAsRoot(server)
    admin = await createSignedInUser(server, 'codeadmin', Role.Admin)
    member = await createSignedInUser(server, 'codemember')
  })
  afterAll(async () => {
    await server?.close()
  })

  const create = async (name: string, quota: number, count?: number): Promise<string[]> => {
    const response = await admin.client.post('/api/redemption/', { name, quota, count })
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    return response.body.data
  }
  const rowOf = (key: string) =>
    server.context.db.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirstOrThrow()

  it('creates a batch of distinct 32-hex codes owned by the creating administrator', async () => {
    const before = Math.floor(Date.now() / 1000)
    const keys = await create('launch', 1000, 3)
    expect(keys).toHaveLength(3)
    expect(new Set(keys).size).toBe(3)
    for (const key of keys) {
      expect(key).toMatch(/^[0-9a-f]{32}$/)
      const row = await rowOf(key)
      expect(row).toMatchObject({ name: 'launch', status: 1, user_id: admin.id, redeemed_time: 0 })
      expect(Number(row.quota)).toBe(1000)
      expect(Number(row.created_time)).toBeGreaterThanOrEqual(before)
    }
    expect(await create('single', 0)).toHaveLength(1)
    expect(await create('hundred', 5, 100)).toHaveLength(100)
  })

  it('refuses bad batches without creating any code', async () => {
    const before = await snapshotTable(server, 'redemptions')
    const cases: Array<[unknown, RegExp]> = [
      [{ quota: 10, count: 1 }, /name is required/],
      [{ name: '   ', quota: 10, count: 1 }, /name is required/],
      [{ name: 'x'.repeat(21), quota: 10, count: 1 }, /at most 20/],
      [{ name: 7, quota: 10, count: 1 }, /name/],
      [{ name: 'bad', quota: -1, count: 1 }, /must not be negative/],
      [{ name: 'bad', quota: 1.5, count: 1 }, /quota must be an integer/],
      [{ name: 'bad', quota: '10', count: 1 }, /quota/],
      [{ name: 'bad', count: 1 }, /quota/],
      [{ name: 'bad', quota: 10, count: 0 }, /at least 1/],
      [{ name: 'bad', quota: 10, count: 101 }, /at most 100/],
      [{ name: 'bad', quota: 10, count: 2.5 }, /count must be an integer/],
    ]
    for (const [body, message] of cases) {
      const response = await admin.client.post('/api/redemption/', body)
      expect(outcome(response), JSON.stringify(body)).toEqual(REFUSED)
      expect(response.body).toMatchObject({ success: false, message: expect.stringMatching(message) })
    }
    expect(outcome(await admin.client.request('POST', '/api/redemption/', { raw: '{"name":"x",' }))).toEqual(
      REFUSED,
    )
    expect(await snapshotTable(server, 'redemptions')).toEqual(before)
  })

  it('lists newest first ten at a time, searches by id or name prefix, and shows one code', async () => {
    const first = await admin.client.get('/api/redemption/?p=0')
    expect(first.body.data).toHaveLength(10)
    const ids = first.body.data.map((code: { id: number }) => code.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    const second = (await admin.client.get('/api/redemption/?p=1')).body.data
    expect(second[0].id).toBeLessThan(ids[9])
    expect((await admin.client.get('/api/redemption/?p=99')).body.data).toEqual([])
    expect(outcome(await admin.client.get('/api/redemption/?p=no'))).toEqual(REFUSED)

    const names = async (keyword: string) =>
      (await admin.client.get(`/api/redemption/search?keyword=${keyword}`)).body.data.map(
        (code: { name: string }) => code.name,
      )
    expect(await names('laun')).toEqual(['launch', 'launch', 'launch'])
    expect(await names('%20sing%20')).toEqual(['single'])
    expect(await names('aunch')).toEqual([])
    expect(await names('hund')).toHaveLength(100)
    await create('hundredth', 1)
    expect(await names('hund')).toHaveLength(100)
    const [single] = (await admin.client.get('/api/redemption/search?keyword=single')).body.data
    expect(await names(String(single.id))).toContain('single')

    const one = await admin.client.get(`/api/redemption/${single.id}`)
    expect(one.body.data).toMatchObject({
      id: single.id,
      name: 'single',
      status: 1,
      quota: 0,
      key: single.key,
    })
    expect(outcome(await admin.client.get('/api/redemption/99999'))).toEqual(REFUSED)
    expect(outcome(await admin.client.get('/api/redemption/abc'))).toEqual(REFUSED)
  })

  it('edits name and quota, enables and disables, and freezes a used code', async () => {
    const [key] = await create('editable', 50)
    const { id } = await rowOf(key)
    const edited = await admin.client.put('/api/redemption/', { id, name: 'renamed', quota: 75 })
    expect(edited.body.data).toMatchObject({ id, name: 'renamed', quota: 75, status: 1 })
    const disabled = await admin.client.put('/api/redemption/?status_only=true', { id, status: 2 })
    expect(disabled.body.data).toMatchObject({ status: 2, name: 'renamed' })
    const refused = await member.client.post('/api/user/topup', { key })
    expect(outcome(refused)).toEqual(REFUSED)
    expect(refused.body.message).toMatch(/disabled/)
    expect(
      (await admin.client.put('/api/redemption/?status_only=true', { id, status: 1 })).body.data.status,
    ).toBe(1)
    expect((await member.client.post('/api/user/topup', { key })).body.data).toBe(75)

    for (const status of [1, 2]) {
      const response = await admin.client.put('/api/redemption/?status_only=true', { id, status })
      expect(outcome(response)).toEqual(REFUSED)
      expect(response.body.message).toMatch(/already been used/)
    }
    const repriced = await admin.client.put('/api/redemption/', { id, name: 'renamed', quota: 1 })
    expect(outcome(repriced)).toEqual(REFUSED)
    const renamed = await admin.client.put('/api/redemption/', { id, name: 'spent', quota: 75 })
    expect(renamed.body.data).toMatchObject({ name: 'spent', status: 3, quota: 75 })
  })

  it('refuses bad edits without changing anything', async () => {
    const [key] = await create('stable', 10)
    const { id } = await rowOf(key)
    const before = await snapshotTable(server, 'redemptions')
    const cases: Array<[string, unknown]> = [
      ['/api/redemption/', { id, name: '', quota: 10 }],
      ['/api/redemption/', { id, name: 'x', quota: -2 }],
      ['/api/redemption/', { id, name: 'x' }],
      ['/api/redemption/', { id: 'one', name: 'x', quota: 1 }],
      ['/api/redemption/', { id: 999999, name: 'x', quota: 1 }],
      ['/api/redemption/?status_only=true', { id, status: 3 }],
      ['/api/redemption/?status_only=true', { id, status: '2' }],
      ['/api/redemption/?status_only=true', { id }],
      ['/api/redemption/?status_only=true', { id: 999999, status: 2 }],
    ]
    for (const [path, body] of cases) {
      const response = await admin.client.put(path, body)
      expect(outcome(response), `${path} ${JSON.stringify(body)}`).toEqual(REFUSED)
      expect(response.body.success).toBe(false)
    }
    expect(await snapshotTable(server, 'redemptions')).toEqual(before)
  })

  it('deletes a code with or without a trailing slash', async () => {
    const keys = await create('doomed', 10, 2)
    const [first, second] = await Promise.all(keys.map(rowOf))
    expect((await admin.client.delete(`/api/redemption/${first.id}/`)).body).toEqual({
      success: true,
      message: '',
    })
    expect((await admin.client.delete(`/api/redemption/${second.id}`)).status).toBe(200)
    expect(outcome(await admin.client.get(`/api/redemption/${first.id}`))).toEqual(REFUSED)
    expect(outcome(await admin.client.delete(`/api/redemption/${second.id}`))).toEqual(REFUSED)
    expect(outcome(await admin.client.delete('/api/redemption/1.5'))).toEqual(REFUSED)
    const gone = await server.context.db
      .selectFrom('redemptions')
      .selectAll()
      .where('name', '=', 'doomed')
      .execute()
    expect(gone).toEqual([])
  })

  it('keeps redemption codes from anonymous callers and normal users', async () => {
    const [key] = await create('guarded', 10)
    const { id } = await rowOf(key)
    const before = await snapshotTable(server, 'redemptions')
    const calls: Array<(client: ApiClient) => Promise<{ status: number; body: { data?: unknown } }>> = [
      (client) => client.get('/api/redemption/'),
      (client) => client.get('/api/redemption/search?keyword=guarded'),
      (client) => client.get(`/api/redemption/${id}`),
      (client) => client.post('/api/redemption/', { name: 'stolen', quota: 1, count: 1 }),
      (client) => client.put('/api/redemption/', { id, name: 'stolen', quota: 1 }),
      (client) => client.put('/api/redemption/?status_only=true', { id, status: 2 }),
      (client) => client.delete(`/api/redemption/${id}/`),
    ]
    for (const call of calls) {
      const anonymous = await call(new ApiClient(server.baseUrl))
      expect(anonymous.status).toBe(401)
      const forbidden = await call(member.client)
      expect(outcome(forbidden)).toEqual(REFUSED)
      expect(JSON.stringify(forbidden.body)).not.toContain(key)
    }
    expect(await snapshotTable(server, 'redemptions')).toEqual(before)
  })
})
