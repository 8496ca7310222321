import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LogType } from '@one-api/contracts'
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../db/database.ts'
import { migrateLogs } from '../db/migrations/migrate.ts'
import { dayOf, SECONDS_PER_DAY } from '../db/repositories/log-totals.ts'
import type { LogSchema, NewLog } from '../db/schema.ts'
import type { SqliteWriteThread } from '../db/sqlite-write-thread.ts'
import type { ChargeQueue } from './ledger/ledger-types.ts'
import { LogWriter, ROWS_PER_QUIET_SQLITE_TRANSACTION, ROWS_PER_SQLITE_TRANSACTION } from './log-writer.ts'

const FIRST_DAY = dayOf(1_700_000_000) * SECONDS_PER_DAY

/** Logs of every kind over three days, with the value shapes writers really pass. */
function sampleLogs(count: number, label: string): NewLog[] {
  return Array.from({ length: count }, (_, index) => {
    const consume = index % 5 !== 0
    return {
      user_id: 1 + (index % 7),
      // Some on a midnight and the second before it.
      created_at: FIRST_DAY + (index % 3) * SECONDS_PER_DAY - (index % 11 === 0 ? 1 : 0) + (index % 97),
      type: consume ? LogType.consume : [LogType.topUp, LogType.manage, LogType.system][index % 3],
      content: index % 13 === 0 ? '' : `${label} ${index}: model ratio 2.50 — «ünïcode»`,
      username: `user-${index % 7}`,
      token_name: index % 4 === 0 ? '' : `token-${index % 4}`,
      model_name: consume ? `model-${index % 3}` : '',
      quota: index % 17 === 0 ? 0 : 2 ** 40 + index,
      prompt_tokens: consume ? 100 + index : 0,
      completion_tokens: consume ? index % 50 : 0,
      channel_id: index % 9,
      request_id: `${label}-${index}`,
      elapsed_time: 1200 + index,
      is_stream: index % 3 === 0 ? index % 2 === 0 : index % 2,
      system_prompt_reset: index % 4 === 1,
      ip: index % 2 ? '203.0.113.7' : '',
    }
  })
}

/**
 * A ledger as the log writer sees it: `queued` says whether charges wait for a commit; commit()
 * is the ledger committing them; flushSettlements() refuses `refusals` times, then commits.
 */
function fakeLedger() {
  const listeners: Array<() => void> = []
  const ledger = {
    queued: false,
    refusals: 0,
    flushes: 0,
    underConcurrentLoad: true,
    get hasQueuedCharges() {
      return ledger.queued
    },
    onCommitted(listener: () => void) {
      listeners.push(listener)
    },
    commit() {
      ledger.queued = false
      for (const listener of listeners) listener()
    },
    flushSettlements() {
      ledger.flushes += 1
      if (ledger.refusals > 0) {
        ledger.refusals -= 1
        return false
      }
      ledger.commit()
      return true
    },
  }
  return ledger satisfies ChargeQueue
}

/** Counts the statements the query builder runs, to tell which path wrote the rows. */
class QueryCounter implements KyselyPlugin {
  count = 0
  transformQuery(args: PluginTransformQueryArgs) {
    this.count++
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result
  }
}

describe('LogWriter on SQLite', () => {
  let directory: string
  const handles: DatabaseHandle<LogSchema>[] = []
  const errors: unknown[] = []
  const writers: LogWriter[] = []

  async function database(): Promise<DatabaseHandle<LogSchema>> {
    const handle = openDatabase<LogSchema>(
      { dialect: 'sqlite', path: join(directory, `${handles.length}.db`) },
      { poolSize: 1, busyTimeoutMs: 1000, maxLifetimeSeconds: 0 },
    )
    handles.push(handle)
    await migrateLogs(handle.db as Kysely<unknown>, 'sqlite')
    return handle
  }

  /**
   * No interval flush during a test. By default it flushes only when the test asks (a huge
   * threshold); `threshold: 'default'` keeps the writer's own.
   */
  function writer(
    db: Kysely<LogSchema>,
    handle?: DatabaseHandle<LogSchema>,
    charges?: ChargeQueue,
    threshold: number | 'default' = 1e9,
  ) {
    const created = new LogWriter(db, (error) => errors.push(error), {
      maxBuffered: threshold === 'default' ? undefined : threshold,
      intervalMs: 3_600_000,
      charges,
      sqlite: handle?.sqlite,
    })
    writers.push(created)
    return created
  }

  /** Every column of every row as SQLite quotes it, so 1 and 1.0 or 1 and '1' differ too. */
  function storedRows(handle: DatabaseHandle<LogSchema>) {
    const sqlite = handle.sqlite!
    const columns = sqlite.pragma('table_info(logs)') as { name: string }[]
    const quoted = columns.map(({ name }) => `quote("${name}") as "${name}"`).join(', ')
    return sqlite.prepare(`select ${quoted} from logs order by id`).all()
  }

  function storedTotals(handle: DatabaseHandle<LogSchema>) {
    return handle
      .sqlite!.prepare(
        'select quote(day), quote(quota), quote(tokens), quote(request_count) from log_daily_totals order by day',
      )
      .all()
  }

  /** The totals the rows must add up to, computed here from the logs themselves. */
  function expectedTotals(logs: NewLog[]) {
    const days = new Map<number, [number, number, number]>()
    for (const log of logs.filter((entry) => entry.type === LogType.consume)) {
      const totals = days.get(dayOf(log.created_at)) ?? [0, 0, 0]
      days.set(dayOf(log.created_at), [
        totals[0] + log.quota,
        totals[1] + log.prompt_tokens + log.completion_tokens,
        totals[2] + 1,
      ])
    }
    return [...days.entries()]
      .sort(([a], [b]) => a - b)
      .map(([day, [quota, tokens, count]]) => ({
        'quote(day)': String(day),
        'quote(quota)': String(quota),
        'quote(tokens)': String(tokens),
        'quote(request_count)': String(count),
      }))
  }

  async function waitForRows(handle: DatabaseHandle<LogSchema>, count: number) {
    for (let waited = 0; requestIds(handle).length < count && waited < 5_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  function requestIds(handle: DatabaseHandle<LogSchema>) {
    return (
      handle.sqlite!.prepare('select request_id from logs order by id').all() as { request_id: string }[]
    ).map((row) => row.request_id)
  }

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'one-api-log-writer-'))
  })
  afterEach(async () => {
    for (const created of writers.splice(0)) await created.close()
    errors.length = 0
  })
  afterAll(async () => {
    for (const handle of handles) await handle.close()
    rmSync(directory, { recursive: true, force: true })
  })

  /** Two fresh databases: one written through prepared statements (its builder counted), one through the builder. */
  async function preparedAndBuilderWriters() {
    const prepared = await database()
    const builder = await database()
    const counter = new QueryCounter()
    return {
      prepared,
      builder,
      counter,
      fast: writer(prepared.db.withPlugin(counter), prepared),
      slow: writer(builder.db),
    }
  }

  it('stores exactly the rows and totals the query builder stores, without going through it', async () => {
    const { prepared, builder, counter, fast, slow } = await preparedAndBuilderWriters()
    const logs = sampleLogs(2_345, 'same')
    // Three flushes of uneven sizes, the last one over a transaction's worth of rows.
    for (const [from, to] of [
      [0, 7],
      [7, 300],
      [300, logs.length],
    ]) {
      for (const log of logs.slice(from, to)) {
        fast.write(log)
        slow.write(log)
      }
      await Promise.all([fast.flush(), slow.flush()])
    }
    expect(errors).toEqual([])
    expect(counter.count).toBe(0)
    const rows = storedRows(prepared)
    expect(rows).toHaveLength(logs.length)
    expect(rows).toEqual(storedRows(builder))
    expect(storedTotals(prepared)).toEqual(storedTotals(builder))
    expect(storedTotals(prepared)).toEqual(expectedTotals(logs))
  })

  it('stores a log that leaves a column out as the query builder does, through it', async () => {
    const { prepared, builder, counter, fast, slow } = await preparedAndBuilderWriters()
    const logs = sampleLogs(450, 'partial')
    // content is the one column without a default; the builder stores NULL for it.
    const { content: _left, ...withoutContent } = logs[300]
    logs[300] = withoutContent as NewLog
    for (const log of logs) {
      fast.write(log)
      slow.write(log)
    }
    await Promise.all([fast.flush(), slow.flush()])
    expect(errors).toEqual([])
    expect(counter.count).toBeGreaterThan(0)
    expect(storedRows(prepared)).toEqual(storedRows(builder))
    expect(storedTotals(prepared)).toEqual(expectedTotals(logs))
  })

  it('keeps the rows of a failed flush and writes them exactly once on the next one', async () => {
    const handle = await database()
    const sqlite = handle.sqlite!
    const logs = sampleLogs(2_500, 'retry')
    // Fails the insert of one row in the middle of the batch, after rows before it were inserted.
    sqlite.exec(`create trigger refuse_log before insert on logs when new.request_id = 'retry-1500'
      begin select raise(abort, 'disk full'); end`)
    const logWriter = writer(handle.db, handle)
    for (const log of logs) logWriter.write(log)
    await logWriter.flush()
    expect(errors).toHaveLength(1)
    expect(String(errors[0])).toContain('disk full')
    // What is stored is a whole prefix with its totals; everything after it is still pending.
    const stored = requestIds(handle)
    expect(stored.length).toBeLessThanOrEqual(1_500)
    expect(stored).toEqual(logs.slice(0, stored.length).map((log) => log.request_id))
    expect(logWriter.pending).toBe(logs.length - stored.length)
    expect(storedTotals(handle)).toEqual(expectedTotals(logs.slice(0, stored.length)))

    sqlite.exec('drop trigger refuse_log')
    const later = sampleLogs(3, 'later')
    for (const log of later) logWriter.write(log)
    await logWriter.flush()
    expect(errors).toHaveLength(1)
    expect(logWriter.pending).toBe(0)
    expect(requestIds(handle)).toEqual([...logs, ...later].map((log) => log.request_id))
    expect(storedTotals(handle)).toEqual(expectedTotals([...logs, ...later]))
  })

  it('never joins a transaction the query builder holds', async () => {
    const handle = await database()
    const logWriter = writer(handle.db, handle)
    const logs = sampleLogs(50, 'busy')
    for (const log of logs) logWriter.write(log)
    let flushed: Promise<void> | undefined
    const rolledBack = handle.db.transaction().execute(async (transaction) => {
      await transaction.insertInto('logs').values(sampleLogs(1, 'rolled-back')[0]).execute()
      // The write thread now waits for the write lock this transaction holds.
      flushed = logWriter.flush()
      await new Promise((resolve) => setTimeout(resolve, 30))
      expect(requestIds(handle)).toEqual(['rolled-back-0'])
      throw new Error('the caller gives up')
    })
    await expect(rolledBack).rejects.toThrow('the caller gives up')
    await flushed
    expect(errors).toEqual([])
    expect(requestIds(handle)).toEqual(logs.map((log) => log.request_id))
    expect(storedTotals(handle)).toEqual(expectedTotals(logs))
  })

  it('holds the logs written while charges are queued until the ledger has committed them', async () => {
    const handle = await database()
    const ledger = fakeLedger()
    const logWriter = writer(handle.db, handle, ledger, 'default')
    const size = ROWS_PER_SQLITE_TRANSACTION
    const [held, later] = [sampleLogs(size, 'held'), sampleLogs(size, 'later')]
    ledger.queued = true
    for (const log of held) logWriter.write(log)
    // A full transaction's worth, yet nothing is written ahead of its charges.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(requestIds(handle)).toEqual([])
    expect(logWriter.pending).toBe(size)

    // The ledger's own commit releases them, with no call from the writer.
    ledger.commit()
    await waitForRows(handle, held.length)
    expect(requestIds(handle)).toEqual(held.map((log) => log.request_id))
    expect(ledger.flushes).toBe(0)

    // An explicit flush has the ledger commit now, asking again while it cannot.
    ledger.queued = true
    for (const log of later) logWriter.write(log)
    ledger.refusals = 2
    await logWriter.flush()
    expect(ledger.flushes).toBe(3)
    expect(logWriter.pending).toBe(0)
    expect(requestIds(handle)).toEqual([...held, ...later].map((log) => log.request_id))
    expect(storedTotals(handle)).toEqual(expectedTotals([...held, ...later]))
    expect(errors).toEqual([])
  })

  it('keeps logs after a queued charge behind it, in the order they were written', async () => {
    const handle = await database()
    const ledger = fakeLedger()
    const logWriter = writer(handle.db, handle, ledger)
    const logs = sampleLogs(30, 'order')
    for (const [index, log] of logs.entries()) {
      ledger.queued = index === 10
      logWriter.write(log)
    }
    ledger.commit()
    await logWriter.flush()
    expect(requestIds(handle)).toEqual(logs.map((log) => log.request_id))
  })

  it('replaces a write thread that stopped, and loses no log', async () => {
    const handle = await database()
    const logWriter = writer(handle.db, handle)
    const [first, second] = [sampleLogs(120, 'first'), sampleLogs(80, 'second')]
    for (const log of first) logWriter.write(log)
    await logWriter.flush()
    // The thread goes away (as if it had crashed); the next flush finds it refusing work.
    await (logWriter as unknown as { thread: SqliteWriteThread }).thread.close()
    for (const log of second) logWriter.write(log)
    await logWriter.flush()
    expect(errors).toHaveLength(1)
    expect(logWriter.pending).toBe(second.length)
    await logWriter.flush()
    expect(errors).toHaveLength(1)
    expect(logWriter.pending).toBe(0)
    expect(requestIds(handle)).toEqual([...first, ...second].map((log) => log.request_id))
    expect(storedTotals(handle)).toEqual(expectedTotals([...first, ...second]))
  })

  it('on a SQLite file, flushes a full transaction of rows by itself, and again for the rows written meanwhile', async () => {
    const handle = await database()
    const size = ROWS_PER_SQLITE_TRANSACTION
    const [first, meanwhile, tail] = [
      sampleLogs(size, 'a'),
      sampleLogs(3 * size + 1, 'b'),
      sampleLogs(30, 'c'),
    ]
    const logWriter = writer(handle.db, handle, undefined, 'default')
    let batchesDone = 0
    logWriter.onWriteDone(() => {
      batchesDone += 1
      // The first flush is still running: these rows must wait for the next one.
      if (batchesDone === 1) for (const log of meanwhile) logWriter.write(log)
    })
    for (const log of first.slice(0, size - 1)) logWriter.write(log)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(batchesDone).toBe(0)
    logWriter.write(first[size - 1]!)
    // The first flush's one transaction, then three full ones; the row over them waits.
    const stored = [...first, ...meanwhile.slice(0, 3 * size)].map((log) => log.request_id)
    await waitForRows(handle, stored.length)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(requestIds(handle)).toEqual(stored)
    expect(errors).toEqual([])
    expect(batchesDone).toBe(4)
    expect(logWriter.pending).toBe(1)
    // Fewer rows than a transaction's worth wait for the interval, or for an explicit flush.
    for (const log of tail) logWriter.write(log)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(requestIds(handle)).toHaveLength(stored.length)
    await logWriter.flush()
    expect(batchesDone).toBe(5)
    expect(requestIds(handle)).toEqual([...first, ...meanwhile, ...tail].map((log) => log.request_id))
  })

  it('writes only whole transactions when a ledger commit overfills the buffer, keeping the rest', async () => {
    const handle = await database()
    const ledger = fakeLedger()
    const logWriter = writer(handle.db, handle, ledger, 'default')
    const size = ROWS_PER_SQLITE_TRANSACTION
    const logs = sampleLogs(size + 7, 'over')
    let batchesDone = 0
    logWriter.onWriteDone(() => {
      batchesDone += 1
    })
    ledger.queued = true
    for (const log of logs) logWriter.write(log)
    // The commit releases a transaction's worth and seven more at once.
    ledger.commit()
    await waitForRows(handle, size)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(requestIds(handle)).toEqual(logs.slice(0, size).map((log) => log.request_id))
    expect(batchesDone).toBe(1)
    expect(logWriter.pending).toBe(7)
    await logWriter.flush()
    expect(batchesDone).toBe(2)
    expect(logWriter.pending).toBe(0)
    expect(requestIds(handle)).toEqual(logs.map((log) => log.request_id))
    expect(storedTotals(handle)).toEqual(expectedTotals(logs))
    expect(errors).toEqual([])
  })

  it('writes smaller transactions while requests come one at a time, and full ones under load', async () => {
    const handle = await database()
    const ledger = fakeLedger()
    const logWriter = writer(handle.db, handle, ledger, 'default')
    const quiet = ROWS_PER_QUIET_SQLITE_TRANSACTION
    const batches: number[] = []
    logWriter.onWriteDone(() => batches.push(requestIds(handle).length))
    ledger.underConcurrentLoad = false
    const [first, second] = [
      sampleLogs(quiet * 2 + 3, 'quiet'),
      sampleLogs(ROWS_PER_SQLITE_TRANSACTION, 'load'),
    ]
    for (const log of first) logWriter.write(log)
    await waitForRows(handle, quiet * 2)
    await new Promise((resolve) => setTimeout(resolve, 50))
    // A transaction per quiet batch; the three over them wait.
    expect(batches).toEqual([quiet, quiet * 2])
    expect(logWriter.pending).toBe(3)
    ledger.underConcurrentLoad = true
    for (const log of second.slice(0, quiet)) logWriter.write(log)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(batches).toHaveLength(2)
    for (const log of second.slice(quiet)) logWriter.write(log)
    await waitForRows(handle, first.length - 3 + ROWS_PER_SQLITE_TRANSACTION)
    expect(requestIds(handle)).toEqual([...first, ...second].slice(0, -3).map((log) => log.request_id))
    expect(errors).toEqual([])
  })

  it('writes everything still buffered on close', async () => {
    const handle = await database()
    const logWriter = writer(handle.db, handle)
    const logs = sampleLogs(3_210, 'close')
    for (const log of logs) logWriter.write(log)
    await logWriter.close()
    expect(errors).toEqual([])
    expect(logWriter.pending).toBe(0)
    expect(requestIds(handle)).toEqual(logs.map((log) => log.request_id))
    expect(storedTotals(handle)).toEqual(expectedTotals(logs))
  })
})
