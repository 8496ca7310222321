import type { NewLog } from '../../db/schema.ts'

/* The types shared by the ledger's PostgreSQL and MySQL writes and their statements. */

/** A token and user pair's settlements summed: what one write applies for all of them. */
export interface PairSettlement {
  tokenId: number
  userId: number
  reserved: number
  actual: number
  /** Requests counted (refunds are not). */
  requests: number
  /** What each channel earned, by channel id (channels with nothing earned left out). */
  channels: Map<number, number>
  /** The requests' consume logs: stored in the same transaction as their charges. */
  logs: NewLog[]
}

/**
 * A write guarded by its id: applied (`ok`), or not applied because this node's hold row for the
 * pair records the write already (`landed`: an earlier try committed, its answer lost) or is gone
 * (`missing`: a sweep took this node for dead and removed it).
 */
export type Guarded<T> = { guard: 'ok'; value: T } | { guard: 'landed' } | { guard: 'missing' }
