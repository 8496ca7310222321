import { Role } from '@one-api/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertLogs, systemLog } from '../../db/repositories/logs-repository.ts'
import { ApiClient, outcome, REFUSED, registerAndLogin } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'

const BASE = 1_700_000_000
const CONSOLE_END = Math.floor(Date.now() / 1000) + 3600
type Row = { id: number; username: string; type: number; content: string; quota: number }
const names = (rows: Row[]) => rows.map((row) => row.username)

describe.each(testDialects())('logs on %s', (dialect) => {
  let server: TestApp
  let alice: ApiClient
  let bob: ApiClient
  let admin: ApiClient
  let root: ApiClient
  beforeAll(async () => {
    server = await startTestApp(dialect)
    alice = await registerAndLogin(server.baseUrl, 'alice')
    bob = await registerAndLogin(server.baseUrl, 'bob')
    admin = await registerAndLogin(server.baseUrl, 'admin1')
    await server.context.db
      .updateTable('users')
      .set({ role: Role.Admin })
      .where('username', '=', 'admin1')
      .execute()
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    const ids = Object.fromEntries(
      (await server.context.db.selectFrom('users').select(['id', 'username']).execute()).map((user) => [
        user.username,
        user.id,
      ]),
    )
    const consume = (
      username: string,
      fields: { model: string; token: string; channel: number; at: number; quota: number; prompt: number },
    ) =>
      systemLog({
        user_id: ids[username],
        username,
        type: 2,
        content: `model ratio 1, completion ratio 1`,
        model_name: fields.model,
        token_name: fields.token,
        channel_id: fields.channel,
        created_at: BASE + fields.at,
        quota: fields.quota,
        prompt_tokens: fields.prompt,
        completion_tokens: fields.prompt / 2,
        request_id: `request-${fields.at}`,
        ip: '10.0.0.1',
        elapsed_time: 1234,
        is_stream: fields.at === 60,
      })
    await server.context.logDb.deleteFrom('logs').execute()
    await insertLogs(server.context.logDb, [
      consume('alice', { model: 'gpt-4o', token: 'alpha', channel: 1, at: 10, quota: 100, prompt: 10 }),
      consume('alice', { model: 'claude-3', token: 'alpha', channel: 2, at: 20, quota: 200, prompt: 20 }),
      systemLog({
        user_id: ids.alice,
        username: 'alice',
        type: 1,
        content: 'Top-up 500',
        quota: 500,
        created_at: BASE + 30,
      }),
      consume('bob', { model: 'gpt-4o', token: 'beta', channel: 1, at: 40, quota: 300, prompt: 30 }),
      systemLog({
        user_id: ids.bob,
        username: 'bob',
        type: 3,
        content: 'manage: quota set',
        created_at: BASE + 50,
      }),
      consume('bob', { model: 'gpt-4o', token: 'beta', channel: 2, at: 60, quota: 400, prompt: 40 }),
      ...Array.from({ length: 12 }, (_, index) =>
        systemLog({
          user_id: ids.admin1,
          username: 'admin1',
          type: 4,
          content: `system ${index}`,
          created_at: BASE + 100 + index,
        }),
      ),
    ])
  })
  afterAll(async () => {
    await server?.close()
  })

  it("lists every log for an admin, newest first, ten per page, with one-api's fields", async () => {
    const first = (await admin.get('/api/log/?p=0')).body.data
    const second = (await admin.get('/api/log/?p=1')).body.data
    expect(first).toHaveLength(10)
    expect(second).toHaveLength(8)
    const ids = [...first, ...second].map((row: Row) => row.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    const streamed = second.find((row: Row) => row.quota === 400)
    expect(streamed).toEqual({
      id: streamed.id,
      created_at: BASE + 60,
      type: 2,
      content: 'model ratio 1, completion ratio 1',
      username: 'bob',
      token_name: 'beta',
      model_name: 'gpt-4o',
      quota: 400,
      prompt_tokens: 40,
      completion_tokens: 20,
      channel: 2,
      ip: '10.0.0.1',
      request_id: 'request-60',
      elapsed_time: 1234,
      is_stream: true,
    })
  })

  it.each([
    ['type=2', ['bob', 'bob', 'alice', 'alice']],
    ['type=0&username=alice', ['alice', 'alice', 'alice']],
    ['token_name=alpha', ['alice', 'alice']],
    ['model_name=gpt-4o', ['bob', 'bob', 'alice']],
    ['channel=2', ['bob', 'alice']],
    [`start_timestamp=${BASE + 20}&end_timestamp=${BASE + 50}`, ['bob', 'bob', 'alice', 'alice']],
    ['username=bob&model_name=gpt-4o&channel=2&type=2', ['bob']],
    ['username=&token_name=&type=&p=', Array(10).fill('admin1')],
    // The console's default range: from 0 to an hour from now.
    [
      `p=1&start_timestamp=0&end_timestamp=${CONSOLE_END}`,
      ['admin1', 'admin1', 'bob', 'bob', 'bob', 'alice', 'alice', 'alice'],
    ],
    [`start_timestamp=${BASE + 20}&end_timestamp=${CONSOLE_END}&type=2`, ['bob', 'bob', 'alice']],
  ])('filters the admin list by %s', async (query, expected) => {
    expect(names((await admin.get(`/api/log/?${query}`)).body.data)).toEqual(expected)
  })

  it.each([
    ['', { quota: 1000, token: 150 }],
    ['username=alice', { quota: 300, token: 45 }],
    ['model_name=gpt-4o&channel=1', { quota: 400, token: 60 }],
    [`start_timestamp=${BASE + 15}&end_timestamp=${BASE + 40}`, { quota: 500, token: 75 }],
    ['type=2&token_name=beta', { quota: 700, token: 105 }],
    ['type=1', { quota: 0, token: 0 }],
    [`start_timestamp=0&end_timestamp=${CONSOLE_END}`, { quota: 1000, token: 150 }],
    [`start_timestamp=${BASE + 20}&end_timestamp=${CONSOLE_END}`, { quota: 900, token: 135 }],
    ['username=nobody', { quota: 0, token: 0 }],
  ])('sums consume logs for the admin stat with %s', async (query, expected) => {
    expect((await admin.get(`/api/log/stat?${query}`)).body.data).toEqual(expected)
  })

  it('shows a user only their own logs, ignoring username and channel', async () => {
    const own = (await alice.get('/api/log/self/?p=0')).body.data
    expect(own.map((row: Row) => row.content)).toEqual([
      'Top-up 500',
      'model ratio 1, completion ratio 1',
      'model ratio 1, completion ratio 1',
    ])
    expect(names((await alice.get('/api/log/self?username=bob&channel=1')).body.data)).toEqual(names(own))
    expect(names((await alice.get('/api/log/self/?type=2&model_name=claude-3')).body.data)).toEqual(['alice'])
    expect((await alice.get('/api/log/self/stat?username=bob')).body.data).toEqual({ quota: 300, token: 45 })
    expect((await bob.get('/api/log/self/stat')).body.data).toEqual({ quota: 700, token: 105 })
    expect((await bob.get('/api/log/self/?token_name=alpha')).body.data).toEqual([])
  })

  it('searches by type number or content prefix', async () => {
    expect(names((await admin.get('/api/log/search?keyword=3')).body.data)).toEqual(['bob'])
    const prefixed = (await admin.get('/api/log/search?keyword=%20system%201')).body.data
    expect(prefixed.map((row: Row) => row.content)).toEqual(['system 11', 'system 10', 'system 1'])
    expect((await admin.get('/api/log/search?keyword=')).body.data).toHaveLength(18)
    expect(names((await alice.get('/api/log/self/search?keyword=2')).body.data)).toEqual(['alice', 'alice'])
    expect((await alice.get('/api/log/self/search?keyword=manage')).body.data).toEqual([])
    expect((await bob.get('/api/log/self/search?keyword=manage')).body.data).toHaveLength(1)
  })

  it("keeps users out of everyone else's logs", async () => {
    for (const client of [alice, bob]) {
      for (const path of ['/api/log/', '/api/log/stat', '/api/log/search?keyword=2']) {
        expect(outcome(await client.get(path))).toEqual(REFUSED)
      }
      expect(outcome(await client.delete(`/api/log/?target_timestamp=${BASE + 1000}`))).toEqual(REFUSED)
    }
    const bobSees = [
      ...(await bob.get('/api/log/self/')).body.data,
      ...(await bob.get('/api/log/self/search?keyword=')).body.data,
    ]
    expect(new Set(names(bobSees))).toEqual(new Set(['bob']))
    const anonymous = new ApiClient(server.baseUrl)
    for (const path of ['/api/log/self/', '/api/log/self/stat', '/api/log/self/search']) {
      expect((await anonymous.get(path)).status).toBe(401)
    }
  })

  it.each([
    'type=9',
    'type=abc',
    'type=-1',
    'p=-1',
    'p=1.5',
    'p=1&p=2',
    'start_timestamp=yesterday',
    'channel=1.5',
    'end_timestamp=-3',
  ])('refuses the bad filter %s with 400', async (query) => {
    for (const path of ['/api/log/', '/api/log/stat']) {
      const response = await admin.get(`${path}?${query}`)
      expect(outcome(response)).toEqual(REFUSED)
      expect(response.body.success).toBe(false)
    }
    expect(outcome(await alice.get(`/api/log/self/?${query}`))).toEqual(REFUSED)
  })

  it('lets only the super administrator delete logs older than a time', async () => {
    expect(outcome(await admin.delete(`/api/log/?target_timestamp=${BASE + 35}`))).toEqual(REFUSED)
    expect(outcome(await root.delete('/api/log/'))).toEqual(REFUSED)
    expect(outcome(await root.delete('/api/log/?target_timestamp=soon'))).toEqual(REFUSED)
    const response = await root.delete(`/api/log/?target_timestamp=${BASE + 40}`)
    expect(response.body).toEqual({ success: true, message: '', data: 3 })
    const left = (await admin.get('/api/log/?p=1')).body.data
    expect(left).toHaveLength(5)
    expect(Math.min(...left.map((row: { created_at: number }) => row.created_at))).toBe(BASE + 40)
    expect((await alice.get('/api/log/self/')).body.data).toEqual([])
  })
})
