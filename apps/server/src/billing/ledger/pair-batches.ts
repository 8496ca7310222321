/**
 * Work queued per key (a token and user pair), with at most one write in flight per key: what is
 * queued while a key's write runs goes, all of it, into that key's next write.
 *
 * On PostgreSQL and MySQL a ledger write holds its token's and user's rows locked until it
 * commits, so the concurrent requests of one token wait for each other whatever we do; each of
 * them committing on its own made a hot token's throughput one commit per request (about 550
 * requests/s on this machine, whatever the number of nodes). Waiting behind the write in flight and
 * then going together costs a request no more than waiting for the lock did, and takes one commit
 * for all of them. Different keys do not wait for each other.
 */
export class PairBatches<T> {
  private readonly queues = new Map<string, T[]>()

  /** `write` handles each batch's outcome itself (it settles its items' promises) and never throws. */
  constructor(private readonly write: (items: T[]) => Promise<void>) {}

  add(key: string, item: T): void {
    const queued = this.queues.get(key)
    if (queued) {
      queued.push(item)
      return
    }
    const items = [item]
    this.queues.set(key, items)
    // The first write waits for the end of this turn of the event loop, so that the requests
    // that arrived together start together.
    setImmediate(() => void this.drain(key, items))
  }

  private async drain(key: string, first: T[]): Promise<void> {
    let items = first
    for (;;) {
      // Later items go into a new array, the next batch, while this one is written.
      const next: T[] = []
      this.queues.set(key, next)
      await this.write(items)
      if (next.length === 0) break
      items = next
    }
    this.queues.delete(key)
  }
}
