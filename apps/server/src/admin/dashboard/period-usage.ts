import type { DashboardUsage } from '@one-api/contracts/dashboard'
import type { Kysely } from 'kysely'
import {
  dayVersions,
  type UsageFilter,
  usageByChannel,
  usageByDay,
  usageByModel,
  usageByUser,
} from '../../db/repositories/usage-queries.ts'
import type { LogSchema } from '../../db/schema.ts'

/** A period's usage for the administrator's dashboard: per day that has any, and per model, channel and user. */
export interface PeriodUsage {
  days: (DashboardUsage & { day: number })[]
  models: Map<string, DashboardUsage>
  channels: Map<number, DashboardUsage>
  users: Map<number, DashboardUsage>
}

async function readUsage(db: Kysely<LogSchema>, filter: UsageFilter): Promise<PeriodUsage> {
  return {
    days: await usageByDay(db, filter),
    models: await usageByModel(db, filter),
    channels: await usageByChannel(db, filter),
    users: await usageByUser(db, filter),
  }
}

function addInto<Key>(target: Map<Key, DashboardUsage>, source: Map<Key, DashboardUsage>) {
  for (const [key, usage] of source) {
    const sum = target.get(key)
    if (!sum) {
      target.set(key, { ...usage })
      continue
    }
    for (const column of Object.keys(usage) as (keyof DashboardUsage)[]) sum[column] += usage[column]
  }
}

/** Two periods' usage together (they must not share a day). */
function combined(first: PeriodUsage, second: PeriodUsage): PeriodUsage {
  const sum: PeriodUsage = {
    days: [...first.days, ...second.days].sort((a, b) => a.day - b.day),
    models: new Map(),
    channels: new Map(),
    users: new Map(),
  }
  for (const part of [first, second]) {
    addInto(sum.models, part.models)
    addInto(sum.channels, part.channels)
    addInto(sum.users, part.users)
  }
  return sum
}

interface CachedPeriod {
  versions: number[]
  usage: PeriodUsage
  /** Rows kept: days, models, channels and users. */
  rows: number
}

const rowsOf = (usage: PeriodUsage) =>
  usage.days.length + usage.models.size + usage.channels.size + usage.users.size

/**
 * The usage of days before today, kept per filter and period, and given out again only while
 * every day of the period has the version it had when read (usage_daily_totals.version, which
 * every write to a day's usage rows moves on in its own transaction): a late log, a failed
 * attempt, a deletion or a rebuild of a past day makes the next dashboard read that period again,
 * on every node. Today is always read: it changes with every request. The versions are read
 * before the usage, so a write in between only costs one more read.
 */
export class FinishedDaysCache {
  private readonly entries = new Map<string, CachedPeriod>()
  private rows = 0

  /**
   * At most `limit` periods and `rowLimit` rows in all are kept (a year across 100,000 active users
   * is 100,000 rows, about 20 MB), the least recently used dropped first.
   */
  constructor(
    private readonly limit = 32,
    private readonly rowLimit = 500_000,
  ) {}

  async usage(db: Kysely<LogSchema>, filter: UsageFilter): Promise<PeriodUsage> {
    const key = JSON.stringify([
      filter.userId,
      filter.modelName,
      filter.channelId,
      filter.firstDay,
      filter.lastDay,
    ])
    const versions = await dayVersions(db, filter.firstDay, filter.lastDay)
    const cached = this.entries.get(key)
    if (cached && cached.versions.every((version, index) => version === versions[index])) {
      this.entries.delete(key)
      this.entries.set(key, cached)
      return cached.usage
    }
    const usage = await readUsage(db, filter)
    const entry = { versions, usage, rows: rowsOf(usage) }
    // Dropped only now: a concurrent look at the same period may have stored it meanwhile.
    this.drop(key)
    this.entries.set(key, entry)
    this.rows += entry.rows
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limit && this.rows <= this.rowLimit) break
      this.drop(oldest)
    }
    return usage
  }

  private drop(key: string) {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.rows -= entry.rows
  }
}

/**
 * The filter's usage: the days before `today` from the cache, today and later days read from the
 * usage tables.
 */
export async function periodUsage(
  db: Kysely<LogSchema>,
  filter: UsageFilter,
  today: number,
  cache: FinishedDaysCache,
): Promise<PeriodUsage> {
  const lastFinished = Math.min(filter.lastDay, today - 1)
  const firstLive = Math.max(filter.firstDay, today)
  const finished =
    filter.firstDay <= lastFinished ? await cache.usage(db, { ...filter, lastDay: lastFinished }) : undefined
  const live =
    firstLive <= filter.lastDay ? await readUsage(db, { ...filter, firstDay: firstLive }) : undefined
  if (finished && live) return combined(finished, live)
  return finished ?? live ?? { days: [], models: new Map(), channels: new Map(), users: new Map() }
}
