import { ITEMS_PER_PAGE, MAX_RECENT_ITEMS } from '@one-api/contracts'
import type { AppContext } from '../../apps/server/src/app-context.ts'
import {
  type LogFilter,
  listLogs,
  searchLogs,
  sumConsumeLogs,
} from '../../apps/server/src/db/repositories/log-queries.ts'
import { listOwnTokens, searchOwnTokens } from '../../apps/server/src/db/repositories/tokens-repository.ts'
import { END_TIME, FIRST_USER_ID, modelName, START_TIME, userName } from './seed.ts'

export interface BenchCase {
  name: string
  /** Runs the query once and returns how many rows it gave. */
  run(): Promise<number>
}

const DAY = 86_400
/** user0 makes ~3 % of all traffic; user999 almost none. */
const HEAVY_USER = { id: FIRST_USER_ID, name: userName(0) }
const LIGHT_USER = { id: FIRST_USER_ID + 999, name: userName(999) }

/** Every query the log and token pages run, with the filters a console user can set. */
export function benchCases(context: AppContext): BenchCase[] {
  const { logDb, db } = context
  const page = (name: string, filter: LogFilter, pageNumber = 0): BenchCase => ({
    name: `list p=${pageNumber}: ${name}`,
    run: async () => (await listLogs(logDb, filter, pageNumber * ITEMS_PER_PAGE, ITEMS_PER_PAGE)).length,
  })
  const stat = (name: string, filter: LogFilter): BenchCase => ({
    name: `stat: ${name}`,
    run: async () => {
      const sums = await sumConsumeLogs(logDb, filter)
      return sums.quota > 0 ? 1 : 0
    },
  })
  const search = (name: string, keyword: string, userId?: number): BenchCase => ({
    name: `search: ${name}`,
    run: async () => (await searchLogs(logDb, keyword, userId, MAX_RECENT_ITEMS)).length,
  })
  const consoleDefaultEnd = END_TIME + 3600
  return [
    page('no filter', {}),
    page('type=2 (consume)', { type: 2 }),
    page('type=5 (rare)', { type: 5 }),
    page('username (heavy user)', { username: HEAVY_USER.name }),
    page('username (light user)', { username: LIGHT_USER.name }),
    page('token_name', { tokenName: 'key-7' }),
    page('model_name (popular)', { modelName: modelName(0) }),
    page('model_name (rare)', { modelName: modelName(49) }),
    page('channel', { channelId: 5 }),
    page('time: console default (0 .. now+1h)', { startTimestamp: 0, endTimestamp: consoleDefaultEnd }),
    page('time: last day', { startTimestamp: END_TIME - DAY, endTimestamp: consoleDefaultEnd }),
    page('time: one old day', { startTimestamp: START_TIME + DAY, endTimestamp: START_TIME + 2 * DAY }),
    page('time: all but the last day', { startTimestamp: START_TIME, endTimestamp: END_TIME - DAY }),
    page('time: first half', { startTimestamp: START_TIME, endTimestamp: START_TIME + 15 * DAY }),
    page('self: user_id (heavy user)', { userId: HEAVY_USER.id }),
    page('self: user_id (light user)', { userId: LIGHT_USER.id }),
    page('self: user_id + type + model', { userId: HEAVY_USER.id, type: 2, modelName: modelName(3) }),
    page('self: user_id + one old day', {
      userId: HEAVY_USER.id,
      startTimestamp: START_TIME + DAY,
      endTimestamp: START_TIME + 2 * DAY,
    }),
    page('username + model + type', { username: HEAVY_USER.name, modelName: modelName(1), type: 2 }),
    page('channel + model + last week', {
      channelId: 3,
      modelName: modelName(2),
      startTimestamp: END_TIME - 7 * DAY,
      endTimestamp: consoleDefaultEnd,
    }),
    page('type=2 + rare model + token', { type: 2, modelName: modelName(49), tokenName: 'key-15' }),
    page('no filter', {}, 1000),
    page('no filter', {}, 10_000),
    page('type=2', { type: 2 }, 1000),
    page('type=2', { type: 2 }, 10_000),
    page('username (heavy user)', { username: HEAVY_USER.name }, 1000),
    page('self: user_id (heavy user)', { userId: HEAVY_USER.id }, 1000),
    page('model_name (popular)', { modelName: modelName(0) }, 10_000),
    stat('no filter', {}),
    stat('username (heavy user)', { username: HEAVY_USER.name }),
    stat('self: user_id (heavy user)', { userId: HEAVY_USER.id }),
    stat('self: user_id + model', { userId: HEAVY_USER.id, modelName: modelName(0) }),
    stat('model_name (popular)', { modelName: modelName(0) }),
    stat('channel', { channelId: 5 }),
    stat('token_name', { tokenName: 'key-7' }),
    stat('time: last day', { startTimestamp: END_TIME - DAY, endTimestamp: consoleDefaultEnd }),
    stat('time: console default (0 .. now+1h)', { startTimestamp: 0, endTimestamp: consoleDefaultEnd }),
    stat('time: two weeks, mid-day to mid-day', {
      startTimestamp: END_TIME - 14 * DAY - 40_000,
      endTimestamp: END_TIME - DAY - 40_000,
    }),
    stat('type=2, all but the last day', {
      type: 2,
      startTimestamp: START_TIME,
      endTimestamp: END_TIME - DAY,
    }),
    stat('username + model + last week', {
      username: HEAVY_USER.name,
      modelName: modelName(0),
      startTimestamp: END_TIME - 7 * DAY,
    }),
    search('blank (newest 100)', ''),
    search('type number 1', '1'),
    search('content prefix (common)', 'Top-up'),
    search('content prefix (absent)', 'no log starts like this'),
    search('self: type number 2', '2', HEAVY_USER.id),
    search('self: content prefix', 'Administrator', HEAVY_USER.id),
    {
      name: 'tokens: list p=0 of one user',
      run: async () => (await listOwnTokens(db, HEAVY_USER.id, 'id', 0, ITEMS_PER_PAGE)).length,
    },
    {
      name: 'tokens: list by remain_quota',
      run: async () => (await listOwnTokens(db, HEAVY_USER.id, 'remain_quota', 0, ITEMS_PER_PAGE)).length,
    },
    {
      name: 'tokens: search by name prefix',
      run: async () => (await searchOwnTokens(db, HEAVY_USER.id, 'key-1', MAX_RECENT_ITEMS)).length,
    },
  ]
}
