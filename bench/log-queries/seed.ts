import type { Insertable, Kysely } from 'kysely'
import { insertLogsWithTotals } from '../../apps/server/src/db/repositories/log-totals.ts'
import type {
  LogSchema,
  LogsTable,
  MainSchema,
  TokensTable,
  UsersTable,
} from '../../apps/server/src/db/schema.ts'

/**
 * Synthetic but realistically skewed data: a few heavy users and popular models make most of the
 * traffic, consume logs (type 2) dominate, and ids grow with time as the log writer inserts them.
 */
export const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000)
export const USER_ROWS = 100_000
export const TOKEN_ROWS = 100_000
export const ACTIVE_USERS = 1_000
export const MODELS = 50
export const CHANNELS = 20
export const DAYS = 30
export const TOKEN_NAMES = 20
/** The bench users' ids start after root (id 1). */
export const FIRST_USER_ID = 2
/** The newest log is from now, as on a live system (the console sends end = now + 1 hour). */
export const END_TIME = Math.floor(Date.now() / 1000)
export const START_TIME = END_TIME - DAYS * 86_400

/** Deterministic pseudo-random numbers, so every run loads the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = Math.imul(state ^ (state >>> 15), 1 | state)
    value ^= value + Math.imul(value ^ (value >>> 7), 61 | value)
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Index in [0, size) with small indexes far more likely (a squared uniform). */
const skewed = (next: () => number, size: number) => Math.floor(next() * next() * size)

export const modelName = (index: number) => `model-${String(index).padStart(2, '0')}`
export const userName = (index: number) => `user${index}`
export const tokenName = (index: number) => (index === 0 ? 'default' : `key-${index}`)

const TYPES = [
  { type: 2, share: 0.92 },
  { type: 4, share: 0.03 },
  { type: 1, share: 0.02 },
  { type: 3, share: 0.02 },
  { type: 5, share: 0.01 },
]
const CONTENT: Record<number, string> = {
  1: 'Top-up through a redemption code: 500000 quota points',
  2: 'model ratio 2.50, completion ratio 4.00, group ratio 1.00',
  3: 'Administrator changed the quota from 0 to 1000000',
  4: 'New user registration gift: 500000 quota points',
  5: 'Channel test passed in 1.42 s',
}

function pickType(value: number): number {
  let total = 0
  for (const entry of TYPES) {
    total += entry.share
    if (value < total) return entry.type
  }
  return 2
}

async function insertInBatches<Row>(
  rows: Iterable<Row>,
  batchSize: number,
  write: (batch: Row[]) => Promise<void>,
): Promise<void> {
  let batch: Row[] = []
  for (const row of rows) {
    batch.push(row)
    if (batch.length === batchSize) {
      await write(batch)
      batch = []
    }
  }
  if (batch.length > 0) await write(batch)
}

function* logRows(): Generator<Insertable<LogsTable>> {
  const next = random(42)
  const span = END_TIME - START_TIME
  for (let index = 0; index < LOG_ROWS; index++) {
    const user = skewed(next, ACTIVE_USERS)
    const type = pickType(next())
    const consume = type === 2
    const prompt = consume ? 10 + Math.floor(next() * 4000) : 0
    const completion = consume ? Math.floor(next() * 2000) : 0
    yield {
      user_id: FIRST_USER_ID + user,
      created_at: START_TIME + Math.floor((index / LOG_ROWS) * span) + Math.floor(next() * 3),
      type,
      content: CONTENT[type],
      username: userName(user),
      token_name: consume ? tokenName(skewed(next, TOKEN_NAMES)) : '',
      model_name: consume ? modelName(skewed(next, MODELS)) : '',
      quota: consume ? Math.floor((prompt + completion * 4) * 2.5) : type === 1 ? 500_000 : 0,
      prompt_tokens: prompt,
      completion_tokens: completion,
      channel_id: consume ? 1 + skewed(next, CHANNELS) : 0,
      request_id: `2025060100000000${String(index).padStart(8, '0')}`,
      elapsed_time: consume ? 200 + Math.floor(next() * 20_000) : 0,
      is_stream: consume && next() < 0.6,
      system_prompt_reset: false,
      ip: `10.${user % 256}.${(user >> 8) % 256}.${1 + (index % 250)}`,
    }
  }
}

function* userRows(): Generator<Omit<UsersTable, 'id' | 'session_version'>> {
  for (let index = 0; index < USER_ROWS; index++) {
    yield {
      username: userName(index),
      password: '$2a$10$benchbenchbenchbenchbeOq9y0m1ZQ0a1b2c3d4e5f6g7h8i9j0k',
      display_name: userName(index),
      role: 1,
      status: 1,
      email: '',
      github_id: '',
      wechat_id: '',
      lark_id: '',
      oidc_id: '',
      access_token: null,
      quota: 1_000_000,
      used_quota: 0,
      request_count: 0,
      group: 'default',
      aff_code: `b${index}`,
      inviter_id: 0,
      last_login_ip: '',
      last_login_time: 0,
      created_time: START_TIME,
    }
  }
}

/** Active users hold 20 tokens each; every other user holds one. */
export const TOKENS_PER_ACTIVE_USER = 20

function* tokenRows(): Generator<Insertable<TokensTable>> {
  const next = random(7)
  for (let index = 0; index < TOKEN_ROWS; index++) {
    const active = index < ACTIVE_USERS * TOKENS_PER_ACTIVE_USER
    const user = active
      ? Math.floor(index / TOKENS_PER_ACTIVE_USER)
      : ACTIVE_USERS + (index % (USER_ROWS - ACTIVE_USERS))
    yield {
      user_id: FIRST_USER_ID + user,
      key: `bench${String(index).padStart(43, '0')}`,
      status: 1,
      name: tokenName(active ? index % TOKENS_PER_ACTIVE_USER : 0),
      created_time: START_TIME,
      accessed_time: START_TIME,
      expired_time: -1,
      remain_quota: Math.floor(next() * 1_000_000),
      unlimited_quota: next() < 0.3,
      used_quota: Math.floor(next() * 100_000),
      models: '',
      subnet: '',
    }
  }
}

/** Multi-row inserts inside one transaction per table; batch sizes stay under every dialect's parameter limit. */
export async function seed(db: Kysely<MainSchema>, logDb: Kysely<LogSchema>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertInBatches(userRows(), 1000, async (batch) => {
      await trx.insertInto('users').values(batch).execute()
    })
    await insertInBatches(tokenRows(), 1000, async (batch) => {
      await trx.insertInto('tokens').values(batch).execute()
    })
  })
  // Through the product's log write, so log_daily_totals is filled as a live system fills it.
  await logDb.transaction().execute(async (trx) => {
    await insertInBatches(logRows(), 1000, async (batch) => {
      await insertLogsWithTotals(trx, batch)
    })
  })
}
