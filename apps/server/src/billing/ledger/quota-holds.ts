import { type Kysely, sql, type Transaction } from 'kysely'
import { isMysql, isSqlite } from '../../db/dialect.ts'
import type { MainSchema } from '../../db/schema.ts'

/**
 * Quota held by a node for its requests in flight. A reservation takes quota from the token and
 * user before the upstream call and its settlement gives back what was not spent; a node that
 * dies in between (a crash, kill -9, a lost machine) would keep that quota away from its owner for
 * good, and the token's used_quota would disagree with the logs. So each node also records, in the
 * same transactions as the balances, how much it holds per token and user (quota_holds), and
 * writes a heartbeat (relay_nodes) while it runs; any node gives back what a node whose heartbeat
 * stopped still holds. Summed per token and user, not per request: a batch of a hundred
 * reservations for one token is one row update.
 */

type Executor = Kysely<MainSchema> | Transaction<MainSchema>

/** How often a node writes its heartbeat and looks for abandoned holds. */
export const HOLD_HEARTBEAT_MS = 30_000
/**
 * A node silent this long is taken for dead and its holds given back. Far above the heartbeat
 * period, so that a slow database or a long pause of one node does not refund quota it will still
 * settle (that would let its requests go unbilled).
 */
export const HOLD_NODE_TIMEOUT_SECONDS = 300

/**
 * The database's clock in unix seconds: every node's heartbeat is written and judged by the one
 * clock they share (a node whose own clock was minutes slow counted as dead, and what it held was
 * given back while it still settled).
 */
function databaseNow(db: Executor) {
  if (isMysql(db)) return sql<number>`unix_timestamp()`
  if (isSqlite(db)) return sql<number>`unixepoch()`
  return sql<number>`extract(epoch from now())::bigint`
}

/**
 * Creates this node's (empty) hold row for a token and user on PostgreSQL or MySQL, in a statement
 * of its own, before the first ledger write that needs it; creating an existing row changes
 * nothing. (On MySQL an insert inside the reservation's transaction took gap locks, and concurrent
 * first reservations of different tokens deadlocked: a few in a hundred failed, the others waited
 * up to seconds after each restart.) SQLite writes its holds in its batch statements
 * (sqlite-ledger-statements.ts).
 */
export async function createHoldRow(db: Kysely<MainSchema>, nodeId: string, tokenId: number, userId: number) {
  const insert = db
    .insertInto('quota_holds')
    .values({ node_id: nodeId, token_id: tokenId, user_id: userId, amount: 0 })
  if (isMysql(db)) await insert.onDuplicateKeyUpdate({ amount: sql`amount` }).execute()
  else
    await insert
      .onConflict((conflict) => conflict.columns(['node_id', 'token_id', 'user_id']).doNothing())
      .execute()
}

/**
 * Gives `amount` back to the token (unless unlimited) and user, as a refund does (negative: takes).
 * Their rows are updated in the order the ledger locks them (PostgreSQL: user, then token; MySQL:
 * token, then user), so a sweep never deadlocks with live requests of the same token: in the other
 * order, PostgreSQL's sweeps and settlements deadlocked.
 */
export async function giveBack(
  trx: Transaction<MainSchema>,
  tokenId: number,
  userId: number,
  amount: number,
) {
  const token = () =>
    trx
      .updateTable('tokens')
      .set({
        remain_quota: sql`case when unlimited_quota = ${true} then remain_quota else remain_quota + ${amount} end`,
        used_quota: sql`used_quota - ${amount}`,
      })
      .where('id', '=', tokenId)
      .execute()
  const user = () =>
    trx
      .updateTable('users')
      .set({ quota: sql`quota + ${amount}` })
      .where('id', '=', userId)
      .execute()
  if (isMysql(trx)) {
    await token()
    await user()
  } else {
    await user()
    await token()
  }
}

/**
 * Gives back what nodes silent for `timeoutSeconds` (by the database's clock) still hold, other
 * than `ownNodeId`, and forgets those nodes. Each hold is claimed by deleting its row in the transaction
 * that refunds it, so two nodes sweeping at once never give the same quota back twice. Returns the
 * quota given back.
 */
export async function sweepAbandonedHolds(
  db: Kysely<MainSchema>,
  ownNodeId: string,
  timeoutSeconds: number,
): Promise<number> {
  const staleBefore = sql<number>`${databaseNow(db)} - ${timeoutSeconds}`
  const alive = db.selectFrom('relay_nodes').select('node_id').where('heartbeat_at', '>=', staleBefore)
  const abandoned = await db
    .selectFrom('quota_holds')
    .selectAll()
    .where('node_id', '!=', ownNodeId)
    .where('node_id', 'not in', alive)
    .execute()
  let givenBack = 0
  for (const hold of abandoned) {
    const amount = Number(hold.amount)
    await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .deleteFrom('quota_holds')
        .where('node_id', '=', hold.node_id)
        .where('token_id', '=', hold.token_id)
        .where('user_id', '=', hold.user_id)
        .where('amount', '=', amount)
        .executeTakeFirst()
      // Gone or changed: another node claimed it, or its node is settling after all.
      if (Number(claimed.numDeletedRows) !== 1 || amount <= 0) return
      await giveBack(trx, hold.token_id, hold.user_id, amount)
      givenBack += amount
    })
  }
  await db
    .deleteFrom('relay_nodes')
    .where('heartbeat_at', '<', staleBefore)
    .where('node_id', '!=', ownNodeId)
    .execute()
  return givenBack
}

export interface QuotaHoldKeeperOptions {
  heartbeatMs?: number
  nodeTimeoutSeconds?: number
  /** Reports what failed in the background (a heartbeat or sweep is tried again next period). */
  onError: (error: unknown) => void
  /** Told each time holds of a dead node were given back, with the quota. */
  onGivenBack?: (quota: number) => void
}

/** Writes this node's heartbeat and gives back the holds of dead nodes, every heartbeat period. */
export class QuotaHoldKeeper {
  private timer: NodeJS.Timeout | undefined
  private registered = false
  private readonly heartbeatMs: number
  private readonly nodeTimeoutSeconds: number

  constructor(
    private readonly db: Kysely<MainSchema>,
    private readonly nodeId: string,
    private readonly options: QuotaHoldKeeperOptions,
  ) {
    this.nodeTimeoutSeconds = options.nodeTimeoutSeconds ?? HOLD_NODE_TIMEOUT_SECONDS
    // A live node writes its heartbeat several times within the timeout, however short it is set.
    this.heartbeatMs =
      options.heartbeatMs ?? Math.min(HOLD_HEARTBEAT_MS, (this.nodeTimeoutSeconds * 1000) / 4)
  }

  /** Registers the node and sweeps once (what a crashed predecessor held comes back at start). */
  async start(): Promise<void> {
    await this.heartbeat()
    await this.sweep()
    this.timer = setInterval(() => {
      this.heartbeat()
        .then(() => this.sweep())
        .catch(this.options.onError)
    }, this.heartbeatMs)
    this.timer.unref()
  }

  /** Gives back what dead nodes hold; the quota given back. */
  async sweep(): Promise<number> {
    const givenBack = await sweepAbandonedHolds(this.db, this.nodeId, this.nodeTimeoutSeconds)
    if (givenBack > 0) this.options.onGivenBack?.(givenBack)
    return givenBack
  }

  /**
   * Stops the heartbeat. Called once the ledger has settled everything: this node's holds are then
   * all 0 and it leaves no trace. A hold still above 0 (a settlement that failed) is kept, with the
   * node's row, for a later sweep to give back once the node counts as dead.
   */
  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.db
      .deleteFrom('quota_holds')
      .where('node_id', '=', this.nodeId)
      .where('amount', '=', 0)
      .execute()
    const left = await this.db
      .selectFrom('quota_holds')
      .select('token_id')
      .where('node_id', '=', this.nodeId)
      .executeTakeFirst()
    if (!left) await this.db.deleteFrom('relay_nodes').where('node_id', '=', this.nodeId).execute()
  }

  private async heartbeat(): Promise<void> {
    const now = databaseNow(this.db)
    const updated = await this.db
      .updateTable('relay_nodes')
      .set({ heartbeat_at: now })
      .where('node_id', '=', this.nodeId)
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) === 1) return
    if (this.registered) {
      // Another node took this one for dead (no heartbeat for nodeTimeoutSeconds) and may have
      // given back what it held: requests it settles now may go partly unbilled.
      this.options.onError(
        new Error(`this node went ${this.nodeTimeoutSeconds} s without a heartbeat and was taken for dead`),
      )
    }
    await this.db.insertInto('relay_nodes').values({ node_id: this.nodeId, heartbeat_at: now }).execute()
    this.registered = true
  }
}
