import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LogWriter } from '../../billing/log-writer.ts'
import { dayOf, SECONDS_PER_DAY, withTotals } from '../../db/repositories/log-totals.ts'
import { insertLogs, systemLog } from '../../db/repositories/logs-repository.ts'
import type { NewLog } from '../../db/schema.ts'
import { ApiClient } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'

const DAY = SECONDS_PER_DAY
/** Midnight UTC; the logs span six days from here. */
const FIRST_DAY = dayOf(1_700_000_000) * DAY
const SPAN_DAYS = 6
const CONSOLE_END = Math.floor(Date.now() / 1000) + 3600

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0
    return state / 4_294_967_296
  }
}

function randomLogs(next: () => number, count: number, label: string): NewLog[] {
  return Array.from({ length: count }, (_, index) => {
    const consume = next() < 0.8
    // Some logs sit exactly on a midnight or the second before one.
    const edge = next() < 0.05
    const day = Math.floor(next() * SPAN_DAYS)
    const created = edge
      ? FIRST_DAY + day * DAY - Math.floor(next() * 2)
      : FIRST_DAY + Math.floor(next() * SPAN_DAYS * DAY)
    return systemLog({
      user_id: 1,
      username: 'root',
      type: consume ? 2 : [1, 3, 4, 5][index % 4],
      content: `${label} ${index}`,
      model_name: consume ? `model-${index % 3}` : '',
      created_at: Math.max(FIRST_DAY, created),
      quota: Math.floor(next() * 10_000),
      prompt_tokens: consume ? Math.floor(next() * 500) : 0,
      completion_tokens: consume ? Math.floor(next() * 300) : 0,
    })
  })
}

type Stored = Pick<NewLog, 'type' | 'created_at' | 'quota' | 'prompt_tokens' | 'completion_tokens'>

/** What the stat must say: the sum over the raw rows, as the route's filters define it. */
function expectedSums(rows: Stored[], start: number, end: number) {
  const matching = rows.filter(
    (row) => row.type === 2 && (!start || row.created_at >= start) && (!end || row.created_at <= end),
  )
  return {
    quota: matching.reduce((total, row) => total + Number(row.quota), 0),
    token: matching.reduce(
      (total, row) => total + Number(row.prompt_tokens) + Number(row.completion_tokens),
      0,
    ),
  }
}

/** Ranges that start and end mid-day, on midnights, a second off them, open, empty and reversed. */
function ranges(next: () => number): [number, number][] {
  const inside = () => FIRST_DAY + Math.floor(next() * SPAN_DAYS * DAY)
  const midnight = () => FIRST_DAY + Math.floor(next() * (SPAN_DAYS + 1)) * DAY
  const fixed: [number, number][] = [
    [0, 0],
    [0, CONSOLE_END],
    [FIRST_DAY, 0],
    [FIRST_DAY + 1, FIRST_DAY + DAY - 1],
    [FIRST_DAY + DAY, FIRST_DAY + 2 * DAY - 1],
    [FIRST_DAY + DAY, FIRST_DAY + 2 * DAY],
    [FIRST_DAY + DAY - 1, FIRST_DAY + 3 * DAY],
    [FIRST_DAY + 3 * DAY + 5, FIRST_DAY + 3 * DAY + 4],
    [0, FIRST_DAY + 4 * DAY + 17],
    [FIRST_DAY + 2 * DAY + 17, CONSOLE_END],
  ]
  const randomRanges = Array.from({ length: 30 }, (_, index): [number, number] => {
    const pick = [inside, midnight, () => midnight() - 1, () => 0][index % 4]
    const a = pick()
    const b = [inside, midnight, () => midnight() - 1][Math.floor(next() * 3)]()
    return a && b && a > b ? [b, a] : [a, b]
  })
  return [...fixed, ...randomRanges]
}

describe.each(testDialects())('daily log totals on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  let stored: Stored[] = []
  const next = random(20_240_601)

  const stat = async (start: number, end: number, type = '') => {
    const query = `start_timestamp=${start}&end_timestamp=${end}&type=${type}`
    const response = await root.get(`/api/log/stat?${query}`)
    expect(response.status).toBe(200)
    return response.body.data
  }

  /** Every range's stat equals the raw sum, and the totals table equals the rows grouped by day. */
  const expectExact = async () => {
    for (const [start, end] of ranges(next)) {
      const expected = expectedSums(stored, start, end)
      expect({ range: [start, end], sums: await stat(start, end) }).toEqual({
        range: [start, end],
        sums: expected,
      })
      expect(await stat(start, end, '2')).toEqual(expected)
    }
    const totals = await withTotals(server.context.logDb)
      .selectFrom('log_daily_totals')
      .select(['day', 'quota', 'tokens', 'request_count'])
      .where('request_count', '!=', 0)
      .orderBy('day')
      .execute()
    const byDay = new Map<number, { day: number; quota: number; tokens: number; request_count: number }>()
    for (const row of stored.filter((log) => log.type === 2)) {
      const day = dayOf(row.created_at)
      const entry = byDay.get(day) ?? { day, quota: 0, tokens: 0, request_count: 0 }
      entry.quota += Number(row.quota)
      entry.tokens += Number(row.prompt_tokens) + Number(row.completion_tokens)
      entry.request_count += 1
      byDay.set(day, entry)
    }
    expect(
      totals.map((row) => ({
        day: Number(row.day),
        quota: Number(row.quota),
        tokens: Number(row.tokens),
        request_count: Number(row.request_count),
      })),
    ).toEqual([...byDay.values()].sort((a, b) => a.day - b.day))
  }

  beforeAll(async () => {
    server = await startTestApp(dialect)
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    const direct = randomLogs(next, 600, 'direct')
    for (let index = 0; index < direct.length; index += 150) {
      await insertLogs(server.context.logDb, direct.slice(index, index + 150))
    }
    // Two batched writers flushing at once, as two nodes would, into the same days.
    const errors: unknown[] = []
    const writers = [1, 2].map(
      () =>
        new LogWriter(server.context.logDb, (error) => errors.push(error), {
          maxBuffered: 10_000,
          intervalMs: 60_000,
        }),
    )
    const batched = [randomLogs(next, 900, 'batched a'), randomLogs(next, 900, 'batched b')]
    batched.forEach((logs, index) => {
      for (const log of logs) writers[index].write(log)
    })
    await Promise.all(writers.map((writer) => writer.close()))
    expect(errors).toEqual([])
    stored = await server.context.logDb
      .selectFrom('logs')
      .select(['type', 'created_at', 'quota', 'prompt_tokens', 'completion_tokens'])
      .execute()
    expect(stored.filter((row) => String(row.type) === '2').length).toBeGreaterThan(1500)
    stored = stored.map((row) => ({ ...row, type: Number(row.type), created_at: Number(row.created_at) }))
  })
  afterAll(async () => {
    await server?.close()
  })

  it('gives the same stat as the raw sum for ranges that start and end mid-day or on midnights', async () => {
    await expectExact()
  })

  it('keeps the stat exact after deleting logs up to a time in the middle of a day', async () => {
    const target = FIRST_DAY + 2 * DAY + 12_345
    const response = await root.delete(`/api/log/?target_timestamp=${target}`)
    const before = stored.length
    stored = stored.filter((row) => row.created_at >= target)
    expect(response.body).toEqual({ success: true, message: '', data: before - stored.length })
    await expectExact()
    // Days wholly before the target are gone from the totals.
    const oldest = await withTotals(server.context.logDb)
      .selectFrom('log_daily_totals')
      .select((eb) => eb.fn.min('day').as('day'))
      .executeTakeFirst()
    expect(Number(oldest?.day)).toBe(dayOf(target))
  })

  it('keeps the stat exact after deleting up to a midnight and then everything', async () => {
    const midnight = FIRST_DAY + 4 * DAY
    await root.delete(`/api/log/?target_timestamp=${midnight}`)
    stored = stored.filter((row) => row.created_at >= midnight)
    await expectExact()
    await root.delete(`/api/log/?target_timestamp=${CONSOLE_END}`)
    stored = []
    expect(await stat(0, 0)).toEqual({ quota: 0, token: 0 })
    expect(await stat(FIRST_DAY + 5, FIRST_DAY + 5 * DAY)).toEqual({ quota: 0, token: 0 })
    const left = await withTotals(server.context.logDb).selectFrom('log_daily_totals').selectAll().execute()
    expect(left).toEqual([])
  })
})
