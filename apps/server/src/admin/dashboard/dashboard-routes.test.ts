import { dayLabel } from '@one-api/contracts/dashboard'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteLogsBefore } from '../../db/repositories/log-queries.ts'
import { dayOf, SECONDS_PER_DAY } from '../../db/repositories/log-totals.ts'
import { checkLogTotals } from '../../db/repositories/log-totals-check.ts'
import { insertLogs, systemLog } from '../../db/repositories/logs-repository.ts'
import { addUsage, USAGE_TABLES, withUsage } from '../../db/repositories/usage-rollups.ts'
import type { NewLog } from '../../db/schema.ts'
import { ApiClient, registerAndLogin } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'
import { adminDashboard } from './dashboard-service.ts'
import { FinishedDaysCache } from './period-usage.ts'

const DAY = SECONDS_PER_DAY
const TODAY = dayOf(Math.floor(Date.now() / 1000))
const at = (daysAgo: number, second = 3600) => (TODAY - daysAgo) * DAY + second

interface Seeded {
  user_id: number
  username: string
  model_name: string
  channel_id: number
  created_at: number
  quota: number
  prompt_tokens: number
  completion_tokens: number
  type?: number
}

/** What one-api's query gives: consume logs of the user in [today-7, today], by day and model. */
function oneApiDashboard(logs: Seeded[], userId: number) {
  const rows = new Map<string, Record<string, string | number>>()
  for (const log of logs) {
    const day = dayOf(log.created_at)
    if ((log.type ?? 2) !== 2 || log.user_id !== userId || day < TODAY - 7 || day > TODAY) continue
    const key = `${dayLabel(day)}|${log.model_name}`
    const row = rows.get(key) ?? {
      Day: dayLabel(day),
      ModelName: log.model_name,
      RequestCount: 0,
      Quota: 0,
      PromptTokens: 0,
      CompletionTokens: 0,
    }
    row.RequestCount = Number(row.RequestCount) + 1
    row.Quota = Number(row.Quota) + log.quota
    row.PromptTokens = Number(row.PromptTokens) + log.prompt_tokens
    row.CompletionTokens = Number(row.CompletionTokens) + log.completion_tokens
    rows.set(key, row)
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row)
}

const SUMS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'error_count'] as const
const summed = (row: Record<string, unknown>) =>
  Object.fromEntries(SUMS.map((column) => [column, Number(row[column])]))
const byKey =
  <Row extends Record<string, unknown>>(key: keyof Row) =>
  (a: Row, b: Row) =>
    String(a[key]) < String(b[key]) ? -1 : 1

/**
 * The administrator's models and channels across everyone (read from the day × model and
 * day × channel tables) equal the sums of usage_daily_channels, which answered them before.
 */
async function expectModelsAndChannelsAsFinestRows(
  server: TestApp,
  admin: ApiClient,
  firstDay: number,
  query: string,
) {
  const { body } = await admin.get(`/api/log/dashboard${query}`)
  const finest = withUsage(server.context.logDb)
    .selectFrom('usage_daily_channels')
    .where('day', '>=', firstDay)
    .where('day', '<=', dayOf(Math.floor(Date.now() / 1000)))
  const models = await finest
    .select((eb) => ['model_name', ...SUMS.map((column) => eb.fn.sum(column).as(column))])
    .groupBy('model_name')
    .execute()
  const channels = await finest
    .select((eb) => ['channel_id', ...SUMS.map((column) => eb.fn.sum(column).as(column))])
    .groupBy('channel_id')
    .execute()
  expect([...body.data.models].sort(byKey('model_name'))).toEqual(
    models.map((row) => ({ model_name: row.model_name, ...summed(row) })).sort(byKey('model_name')),
  )
  const answered = body.data.channels.map(
    ({ channel_id, channel_name, error_rate, ...row }: Record<string, unknown>) => ({ channel_id, ...row }),
  )
  expect(answered.sort(byKey('channel_id'))).toEqual(
    channels.map((row) => ({ channel_id: Number(row.channel_id), ...summed(row) })).sort(byKey('channel_id')),
  )
}

describe.each(testDialects())('usage dashboards on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  let alice: ApiClient
  let bob: ApiClient
  let admin: ApiClient
  let aliceId: number
  let bobId: number
  let channelA: number
  let channelB: number
  const seeded: Seeded[] = []

  beforeAll(async () => {
    server = await startTestApp(dialect)
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    alice = await registerAndLogin(server.baseUrl, 'dash-alice')
    bob = await registerAndLogin(server.baseUrl, 'dash-bob')
    admin = await registerAndLogin(server.baseUrl, 'dash-admin')
    await server.context.db
      .updateTable('users')
      .set({ role: 10 })
      .where('username', '=', 'dash-admin')
      .execute()
    const ids = await server.context.db.selectFrom('users').select(['id', 'username']).execute()
    aliceId = ids.find((row) => row.username === 'dash-alice')!.id
    bobId = ids.find((row) => row.username === 'dash-bob')!.id
    for (const name of ['dash-channel-a', 'dash-channel-b']) {
      const created = await root.post('/api/channel/', {
        name,
        type: 50,
        key: `sk-${name}`,
        base_url: 'http://127.0.0.1:9/v1',
        models: ['gpt-a', 'gpt-b'],
        group: ['default'],
      })
      expect(created.body.success, JSON.stringify(created.body)).toBe(true)
    }
    const channels = await server.context.db.selectFrom('channels').select(['id', 'name']).execute()
    channelA = channels.find((row) => row.name === 'dash-channel-a')!.id
    channelB = channels.find((row) => row.name === 'dash-channel-b')!.id

    const add = (log: Seeded) => seeded.push(log)
    // Alice: two models over three days, one log ten days ago (outside the default period).
    for (const daysAgo of [0, 0, 1, 3, 10]) {
      add({
        user_id: aliceId,
        username: 'dash-alice',
        model_name: daysAgo === 0 ? 'gpt-b' : 'gpt-a',
        channel_id: channelA,
        created_at: at(daysAgo, 60 + daysAgo),
        quota: 1000 + daysAgo,
        prompt_tokens: 10 + daysAgo,
        completion_tokens: 5,
      })
    }
    // Alice's first second of the oldest day counted and the last second of today.
    add({ ...seeded[0], created_at: at(7, 0), quota: 3 })
    add({ ...seeded[0], created_at: at(0, DAY - 1), quota: 4 })
    // Bob spends more, on channel B.
    for (const daysAgo of [0, 2, 2]) {
      add({
        user_id: bobId,
        username: 'dash-bob',
        model_name: 'gpt-a',
        channel_id: channelB,
        created_at: at(daysAgo),
        quota: 50_000,
        prompt_tokens: 100,
        completion_tokens: 200,
      })
    }
    // A top-up log of Alice's: not usage.
    add({ ...seeded[0], type: 1, quota: 999_999 })
    const logs: NewLog[] = seeded.map((log) =>
      systemLog({ ...log, type: log.type ?? 2, content: 'dashboard test' }),
    )
    await insertLogs(server.context.logDb, logs)
    // Three failed attempts on channel A today (of Bob's requests), one yesterday.
    const failure = (day: number, count: number) => ({
      day,
      user_id: bobId,
      model_name: 'gpt-a',
      channel_id: channelA,
      request_count: 0,
      quota: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      error_count: count,
    })
    await server.context.logDb
      .transaction()
      .execute((trx) => addUsage(trx, [failure(TODAY, 3), failure(TODAY - 1, 1)]))
  })
  afterAll(async () => {
    await server?.close()
  })

  it("answers a user's own last eight days by day and model as one-api does", async () => {
    const response = await alice.get('/api/user/dashboard')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true, message: '', data: oneApiDashboard(seeded, aliceId) })
    expect(response.body.data.length).toBe(4)
    expect(Object.keys(response.body.data[0])).toEqual([
      'Day',
      'ModelName',
      'RequestCount',
      'Quota',
      'PromptTokens',
      'CompletionTokens',
    ])
    // Bob's dashboard holds his usage only, without the failed attempts.
    const bobs = await bob.get('/api/user/dashboard')
    expect(bobs.body.data).toEqual(oneApiDashboard(seeded, bobId))
    expect((await root.get('/api/user/dashboard')).body.data).toEqual([])
  })

  it('refuses the dashboards to callers without the right role', async () => {
    expect((await new ApiClient(server.baseUrl).get('/api/user/dashboard')).status).toBe(401)
    expect((await new ApiClient(server.baseUrl).get('/api/log/dashboard')).status).toBe(401)
    const refused = await alice.get('/api/log/dashboard')
    expect(refused.body.success).toBe(false)
    expect(refused.body.message).toMatch(/Permission denied/)
    expect((await admin.get('/api/log/dashboard')).body.success).toBe(true)
  })

  it('gives the administrator totals, every day, top models, channels with error rates, and top users', async () => {
    const { body } = await admin.get('/api/log/dashboard')
    expect(body.success).toBe(true)
    const data = body.data
    expect(data.start_day).toBe(dayLabel(TODAY - 7))
    expect(data.end_day).toBe(dayLabel(TODAY))
    expect(data.days).toHaveLength(8)
    const inPeriod = seeded.filter((log) => (log.type ?? 2) === 2 && dayOf(log.created_at) >= TODAY - 7)
    const quota = inPeriod.reduce((total, log) => total + log.quota, 0)
    expect(data.totals).toEqual({
      request_count: inPeriod.length,
      quota,
      prompt_tokens: inPeriod.reduce((total, log) => total + log.prompt_tokens, 0),
      completion_tokens: inPeriod.reduce((total, log) => total + log.completion_tokens, 0),
      error_count: 4,
    })
    expect(data.days.reduce((total: number, day: { quota: number }) => total + day.quota, 0)).toBe(quota)
    expect(data.days[7]).toMatchObject({ day: dayLabel(TODAY), error_count: 3 })
    expect(data.days[1]).toMatchObject({ request_count: 0, quota: 0 })
    expect(data.users.map((row: { username: string }) => row.username)).toEqual(['dash-bob', 'dash-alice'])
    expect(data.users[0]).toMatchObject({ user_id: bobId, quota: 150_000, request_count: 3 })
    expect(data.models.map((row: { model_name: string }) => row.model_name)).toEqual(['gpt-a', 'gpt-b'])
    const channelRows = Object.fromEntries(
      data.channels.map((row: { channel_name: string }) => [row.channel_name, row]),
    )
    const aliceRequests = inPeriod.filter((log) => log.channel_id === channelA).length
    expect(channelRows['dash-channel-a']).toMatchObject({
      channel_id: channelA,
      request_count: aliceRequests,
      error_count: 4,
      error_rate: 4 / (aliceRequests + 4),
    })
    expect(channelRows['dash-channel-b']).toMatchObject({ request_count: 3, error_count: 0, error_rate: 0 })
  })

  it('narrows by user, model, channel and period', async () => {
    const byUser = (await admin.get('/api/log/dashboard?username=dash-alice')).body.data
    expect(byUser.users).toEqual([expect.objectContaining({ username: 'dash-alice', request_count: 6 })])
    expect(byUser.totals.error_count).toBe(0)
    const byModel = (await admin.get('/api/log/dashboard?model_name=gpt-b')).body.data
    const gptB = seeded.filter((log) => (log.type ?? 2) === 2 && log.model_name === 'gpt-b')
    expect(byModel.totals.request_count).toBe(gptB.length)
    expect(byModel.users.map((row: { username: string }) => row.username)).toEqual(['dash-alice'])
    const byChannel = (await admin.get(`/api/log/dashboard?channel=${channelB}`)).body.data
    expect(byChannel.totals).toMatchObject({ request_count: 3, quota: 150_000 })
    expect(byChannel.channels.map((row: { channel_id: number }) => row.channel_id)).toEqual([channelB])
    expect(byChannel.users.map((row: { username: string }) => row.username)).toEqual(['dash-bob'])
    // Two whole days, given as any second inside them; the log ten days ago counts only in a wide period.
    const period = `start_timestamp=${at(2, 7000)}&end_timestamp=${at(1, 10)}`
    const narrow = (await admin.get(`/api/log/dashboard?${period}`)).body.data
    expect(narrow.days.map((row: { day: string }) => row.day)).toEqual([
      dayLabel(TODAY - 2),
      dayLabel(TODAY - 1),
    ])
    expect(narrow.totals).toMatchObject({ request_count: 3, error_count: 1 })
    const wide = (await admin.get(`/api/log/dashboard?start_timestamp=${at(30)}`)).body.data
    expect(wide.days).toHaveLength(31)
    expect(wide.totals.request_count).toBe(seeded.filter((log) => (log.type ?? 2) === 2).length)
    const nobody = (await admin.get('/api/log/dashboard?username=nobody-here')).body.data
    expect(nobody.totals.request_count).toBe(0)
    expect(nobody.users).toEqual([])
  })

  it('ranks models and channels across everyone as the day × model × channel rows sum up', async () => {
    await expectModelsAndChannelsAsFinestRows(server, admin, TODAY - 7, '')
    await expectModelsAndChannelsAsFinestRows(server, admin, TODAY - 30, `?start_timestamp=${at(30)}`)
  })

  it('says what is wrong with a period it cannot answer', async () => {
    const reversed = await admin.get(`/api/log/dashboard?start_timestamp=${at(1)}&end_timestamp=${at(3)}`)
    expect(reversed.body).toMatchObject({
      success: false,
      message: 'start_timestamp must not be after end_timestamp',
    })
    const long = await admin.get(`/api/log/dashboard?start_timestamp=${at(400)}`)
    expect(long.body).toMatchObject({ success: false, message: 'The period can be at most 366 days' })
    const bad = await admin.get('/api/log/dashboard?channel=abc')
    expect(bad.body).toMatchObject({ success: false, message: 'channel must be an integer' })
  })

  // Last: it changes the seeded usage of past days.
  it('shows a late log, a failed attempt, a deletion and a rebuild of a past day at once', async () => {
    const { logDb } = server.context
    const periods = ['', `?start_timestamp=${at(30)}`, `?channel=${channelB}`]
    /** Each period's answer, checked against one read with an empty cache (no past day kept). */
    const dashboards = async () => {
      const answers = []
      for (const period of periods) {
        const { body } = await admin.get(`/api/log/dashboard${period}`)
        const query = Object.fromEntries(new URLSearchParams(period.slice(1)))
        const uncached = await adminDashboard(server.context, query, new FinishedDaysCache())
        expect(body.data).toEqual(JSON.parse(JSON.stringify(uncached)))
        answers.push(body.data)
      }
      return answers
    }
    const [week, month, channel] = await dashboards()
    const yesterday = (data: { days: { quota: number; error_count: number }[] }) => data.days.at(-2)!

    // A log of yesterday written late, through the product's log write.
    const late = { model_name: 'gpt-late', channel_id: channelB, created_at: at(1, 50), quota: 7 }
    await insertLogs(logDb, [
      systemLog({ user_id: aliceId, username: 'dash-alice', type: 2, content: 'late', ...late }),
    ])
    const [weekLate, monthLate, channelLate] = await dashboards()
    expect(weekLate.totals.request_count).toBe(week.totals.request_count + 1)
    expect(yesterday(weekLate).quota).toBe(yesterday(week).quota + 7)
    expect(monthLate.models.map((row: { model_name: string }) => row.model_name)).toContain('gpt-late')
    expect(channelLate.totals.quota).toBe(channel.totals.quota + 7)
    expect(month.models.map((row: { model_name: string }) => row.model_name)).not.toContain('gpt-late')

    // A failed attempt of yesterday on channel B.
    const failure = { day: TODAY - 1, user_id: bobId, model_name: 'gpt-a', channel_id: channelB }
    const counts = { request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, error_count: 1 }
    await logDb.transaction().execute((trx) => addUsage(trx, [{ ...failure, ...counts }]))
    const [weekFailed] = await dashboards()
    expect(yesterday(weekFailed).error_count).toBe(yesterday(weekLate).error_count + 1)

    // The logs before yesterday deleted by the administrator's clean-up.
    await deleteLogsBefore(logDb, (TODAY - 1) * DAY)
    const [weekCleared, monthCleared] = await dashboards()
    const kept = seeded.filter((log) => (log.type ?? 2) === 2 && dayOf(log.created_at) >= TODAY - 1)
    expect(monthCleared.totals.request_count).toBe(kept.length + 1)
    expect(weekCleared.totals.request_count).toBe(kept.length + 1)

    // A log written behind the gateway's back (no usage rows) shows once the start-up check rebuilt them.
    await logDb
      .insertInto('logs')
      .values(systemLog({ user_id: bobId, username: 'dash-bob', type: 2, content: 'by hand', ...late }))
      .execute()
    expect(await checkLogTotals(logDb as unknown as Kysely<unknown>)).toEqual([
      'log_daily_totals',
      ...USAGE_TABLES,
    ])
    const [weekRebuilt] = await dashboards()
    await expectModelsAndChannelsAsFinestRows(server, admin, TODAY - 7, '')
    expect(weekRebuilt.totals.request_count).toBe(kept.length + 2)
    expect(weekRebuilt.users.map((row: { username: string }) => row.username)).toContain('dash-bob')
  })
})
