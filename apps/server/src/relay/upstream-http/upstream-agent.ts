import { OriginPool, type PoolOptions } from './origin-pool.ts'
import { requestHead } from './request-head.ts'
import type { CallHandler } from './upstream-connection.ts'

const SENDS_BODY = new Set(['POST', 'PUT', 'PATCH'])

export interface AgentCall {
  /** `http(s)://host[:port]`, without a path. */
  origin: string
  /** Path and query, starting with '/'. */
  path: string
  method: string
  headers: Record<string, string>
  body?: Buffer | string
}

/**
 * The HTTP/1.1 client of the relay's upstream calls: one pool of keep-alive connections per
 * origin. It does what the relay needs of undici's Agent with less work per call (measured in
 * bench/README.md): the request is written in the turn it is made, the answer's head is parsed in
 * one pass, and its body is handed on as views of the socket's chunks.
 */
export class UpstreamAgent {
  private readonly pools = new Map<string, OriginPool>()
  private readonly options: PoolOptions

  constructor(options: Partial<PoolOptions>) {
    this.options = {
      connections: 8192,
      timeoutMs: 0,
      keepAliveMs: 30_000,
      connectTimeoutMs: 10_000,
      ...options,
    }
  }

  /** Makes the call; its outcome, failures included, reaches `handler` (never a throw). */
  dispatch(call: AgentCall, handler: CallHandler): void {
    let pool: OriginPool
    let head: string
    let body: Buffer | undefined
    try {
      pool = this.pool(call.origin)
      body = typeof call.body === 'string' ? Buffer.from(call.body) : call.body
      // A method that carries a body says its length even without one, as undici does.
      const length = body !== undefined || SENDS_BODY.has(call.method) ? (body?.length ?? 0) : undefined
      head = requestHead(call.method, call.path, pool.hostHeader, call.headers, length)
    } catch (error) {
      handler.onError(error as Error)
      return
    }
    pool.dispatch({ method: call.method, head, body }, handler)
  }

  /** Closes every connection; calls in flight end in an error. */
  close(): void {
    for (const pool of this.pools.values()) pool.close()
    this.pools.clear()
  }

  /** Connections open now to `origin` (tests read it). */
  openConnections(origin: string): number {
    return this.pools.get(origin)?.openConnections ?? 0
  }

  private pool(origin: string): OriginPool {
    let pool = this.pools.get(origin)
    if (!pool) {
      pool = new OriginPool(origin, this.options)
      this.pools.set(origin, pool)
    }
    return pool
  }
}
