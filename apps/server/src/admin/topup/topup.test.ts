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

describe.each(testDialects())('top-ups and redemption on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  let admin: TestUser
  let member: TestUser
  let rival: TestUser
  beforeAll(async () => {
    server = await startTestApp(dialect)
    root = await signInAsRoot(server)
    admin = await createSignedInUser(server, 'topadmin', Role.Admin)
    member = await createSignedInUser(server, 'topmember')
    rival = await createSignedInUser(server, 'toprival')
  })
  afterAll(async () => {
    await server?.close()
  })

  const quotaOf = async (id: number) => Number((await readUser(server, id)).quota)
  const createCodes = async (quota: number, count = 1): Promise<string[]> =>
    (await admin.client.post('/api/redemption/', { name: 'test', quota, count })).body.data
  const codeRow = (key: string) =>
    server.context.db.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirstOrThrow()

  it('credits and debits a user with a top-up log that carries the amount and remark', async () => {
    const start = await quotaOf(member.id)
    const credit = await admin.client.post('/api/topup', {
      user_id: member.id,
      quota: 2500,
      remark: 'invoice 42',
    })
    expect(credit.status).toBe(200)
    expect(credit.body.data).toEqual({ user_id: member.id, quota: start + 2500 })
    const debit = await admin.client.post('/api/topup', { user_id: member.id, quota: -500 })
    expect(debit.body.data.quota).toBe(start + 2000)
    expect((await member.client.get('/api/user/self')).body.data.quota).toBe(start + 2000)
    const logs = (await logsOfType(server, 1)).filter((log) => log.user_id === member.id)
    expect(logs).toHaveLength(2)
    expect(logs[0]).toMatchObject({ username: 'topmember', quota: 2500 })
    expect(logs[0].content).toBe('Administrator topped up $0.005000 quota (remark: invoice 42)')
    expect(logs[1]).toMatchObject({ quota: -500, content: 'Administrator deducted $0.001000 quota' })
  })

  it('refuses bad top-ups without changing any balance or writing a log', async () => {
    const deleted = await createSignedInUser(server, 'topgone')
    await admin.client.delete(`/api/user/${deleted.id}`)
    const users = await snapshotTable(server, 'users')
    const logCount = (await logsOfType(server, 1)).length
    const cases: Array<[unknown, RegExp]> = [
      [{ user_id: member.id, quota: 0 }, /must not be zero/],
      [{ user_id: member.id, quota: 1.5 }, /quota must be an integer/],
      [{ user_id: member.id, quota: '10' }, /quota/],
      [{ user_id: member.id }, /quota/],
      [{ quota: 10 }, /id/],
      [{ user_id: -3, quota: 10 }, /id/],
      [{ user_id: member.id, quota: 10, remark: 5 }, /remark/],
      [{ user_id: member.id, quota: -1e12 }, /not have enough quota/],
      [{ user_id: 999999, quota: 10 }, /User not found/],
      [{ user_id: deleted.id, quota: 10 }, /User not found/],
    ]
    for (const [body, message] of cases) {
      const response = await admin.client.post('/api/topup', body)
      expect(outcome(response), JSON.stringify(body)).toEqual(REFUSED)
      expect(response.body).toMatchObject({ success: false, message: expect.stringMatching(message) })
    }
    expect(outcome(await admin.client.request('POST', '/api/topup', { raw: '{"quota":' }))).toEqual(REFUSED)
    expect(await snapshotTable(server, 'users')).toEqual(users)
    expect(await logsOfType(server, 1)).toHaveLength(logCount)
  })

  it('lets only a higher role top up a user', async () => {
    const peer = await createSignedInUser(server, 'toppeer', Role.Admin)
    const users = await snapshotTable(server, 'users')
    expect(outcome(await admin.client.post('/api/topup', { user_id: peer.id, quota: 10 }))).toEqual(REFUSED)
    expect(outcome(await admin.client.post('/api/topup', { user_id: admin.id, quota: 10 }))).toEqual(REFUSED)
    expect(outcome(await member.client.post('/api/topup', { user_id: member.id, quota: 10 }))).toEqual(
      REFUSED,
    )
    expect(
      (await new ApiClient(server.baseUrl).post('/api/topup', { user_id: member.id, quota: 10 })).status,
    ).toBe(401)
    expect(await snapshotTable(server, 'users')).toEqual(users)
    expect((await root.post('/api/topup', { user_id: peer.id, quota: 10 })).body.data.quota).toBe(10)
  })

  it('redeems a code once, credits its quota and logs it', async () => {
    const [key] = await createCodes(1000)
    const start = await quotaOf(member.id)
    const before = Math.floor(Date.now() / 1000)
    const redeemed = await member.client.post('/api/user/topup', { key: ` ${key} ` })
    expect(redeemed.status).toBe(200)
    expect(redeemed.body).toEqual({ success: true, message: '', data: 1000 })
    expect(await quotaOf(member.id)).toBe(start + 1000)
    const row = await codeRow(key)
    expect(row.status).toBe(3)
    expect(Number(row.redeemed_time)).toBeGreaterThanOrEqual(before)
    const log = (await logsOfType(server, 1)).filter((entry) => entry.user_id === member.id).at(-1)
    expect(log).toMatchObject({
      username: 'topmember',
      quota: 1000,
      content: 'Redeemed a code for $0.002000 quota',
    })

    const again = await member.client.post('/api/user/topup', { key })
    expect(outcome(again)).toEqual(REFUSED)
    expect(again.body.message).toMatch(/already been used/)
    expect(await quotaOf(member.id)).toBe(start + 1000)
  })

  it('refuses unknown codes and bad requests without crediting anything', async () => {
    const users = await snapshotTable(server, 'users')
    const unknown = await member.client.post('/api/user/topup', { key: '0123456789abcdef0123456789abcdef' })
    expect(outcome(unknown)).toEqual(REFUSED)
    expect(unknown.body).toEqual({ success: false, message: 'Invalid redemption code' })
    for (const body of [{}, { key: '' }, { key: 123 }, { key: 'x'.repeat(65) }]) {
      const response = await member.client.post('/api/user/topup', body)
      expect(outcome(response), JSON.stringify(body)).toEqual(REFUSED)
      expect(response.body.success).toBe(false)
    }
    expect(outcome(await member.client.request('POST', '/api/user/topup', { raw: 'key' }))).toEqual(REFUSED)
    const [key] = await createCodes(10)
    expect((await new ApiClient(server.baseUrl).post('/api/user/topup', { key })).status).toBe(401)
    expect((await codeRow(key)).status).toBe(1)
    expect(await snapshotTable(server, 'users')).toEqual(users)
  })

  it('lets exactly one of two users racing for a code have it', async () => {
    const keys = await createCodes(700, 5)
    for (const key of keys) {
      const memberStart = await quotaOf(member.id)
      const rivalStart = await quotaOf(rival.id)
      const [first, second] = await Promise.all([
        member.client.post('/api/user/topup', { key }),
        rival.client.post('/api/user/topup', { key }),
      ])
      const outcomes = [first.body.success, second.body.success].sort()
      expect(outcomes).toEqual([false, true])
      const loser = first.body.success ? second : first
      expect(loser.body.message).toMatch(/already been used/)
      const gained = (await quotaOf(member.id)) - memberStart + (await quotaOf(rival.id)) - rivalStart
      expect(gained).toBe(700)
      expect((await codeRow(key)).status).toBe(3)
    }
  })

  it('credits a code once when one user fires it many times at once', async () => {
    const [key] = await createCodes(300)
    const start = await quotaOf(member.id)
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => member.client.post('/api/user/topup', { key })),
    )
    expect(responses.filter((response) => response.body.success === true)).toHaveLength(1)
    expect(await quotaOf(member.id)).toBe(start + 300)
    const logs = (await logsOfType(server, 1)).filter((log) => log.quota === 300 && log.user_id === member.id)
    expect(logs).toHaveLength(1)
  })
})
