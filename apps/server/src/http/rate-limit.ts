import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../app-context.ts'

const API_WINDOW_SECONDS = 180
const WEB_WINDOW_SECONDS = 180
const CRITICAL_WINDOW_SECONDS = 1200
export const RATE_LIMIT_MESSAGE = 'Too many requests, please try again later'
/** At most one warning per this period while the limiter keeps failing (one per request would flood). */
const FAILURE_WARNING_PERIOD_MS = 60_000

/**
 * One-api's per-IP limits: the management API and dashboard, the web console,
 * and a stricter limit on sign-in, registration and verification. The relay (/v1) is not limited
 * here. Memory or Redis backed, so the count is shared by every node when Redis is configured.
 * A limiter that fails (Redis unreachable) lets the request through: losing the limits for a while
 * is better than the whole console and management API answering 500.
 */
export function installRateLimits(app: FastifyInstance, context: AppContext): void {
  const { config, rateLimiter } = context
  if (config.DEBUG) return
  let lastWarning = Number.NEGATIVE_INFINITY
  let unlimitedSinceWarning = 0
  const allow = async (key: string, limit: number, window: number): Promise<boolean> => {
    try {
      return await rateLimiter.allow(key, limit, window)
    } catch (error) {
      unlimitedSinceWarning += 1
      const now = Date.now()
      if (now - lastWarning >= FAILURE_WARNING_PERIOD_MS) {
        app.log.warn(
          {
            err: error instanceof Error ? error.message : String(error),
            unlimitedRequests: unlimitedSinceWarning,
          },
          'rate limiting is unavailable; requests are served without limits until it recovers',
        )
        lastWarning = now
        unlimitedSinceWarning = 0
      }
      return true
    }
  }
  app.addHook('onRequest', (request, reply, done) => {
    const kind = classify(request)
    if (kind === 'none') return done()
    // A rejected request has been answered: the chain must not go on.
    limit(request, reply, kind).then((allowed) => {
      if (allowed) done()
    }, done)
  })
  const limit = async (
    request: FastifyRequest,
    reply: FastifyReply,
    kind: 'api' | 'web',
  ): Promise<boolean> => {
    const checks: Array<[string, number, number]> = []
    if (kind === 'api') checks.push([`GA${request.ip}`, config.GLOBAL_API_RATE_LIMIT, API_WINDOW_SECONDS])
    if (kind === 'web') checks.push([`GW${request.ip}`, config.GLOBAL_WEB_RATE_LIMIT, WEB_WINDOW_SECONDS])
    if (request.routeOptions.config?.rateLimit === 'critical') {
      checks.push([`CT${request.ip}`, config.CRITICAL_RATE_LIMIT, CRITICAL_WINDOW_SECONDS])
    }
    for (const [key, limit, window] of checks) {
      if (limit === 0) continue
      if (!(await allow(key, limit, window))) {
        reply.header('Retry-After', String(window))
        reply.status(429).send({ success: false, message: RATE_LIMIT_MESSAGE })
        return false
      }
    }
    return true
  }
}

function classify(request: FastifyRequest): 'api' | 'web' | 'none' {
  const path = request.url
  if (
    path.startsWith('/api/') ||
    path === '/api' ||
    path.startsWith('/dashboard/') ||
    path.startsWith('/v1/dashboard/')
  ) {
    return 'api'
  }
  if (path.startsWith('/v1/') || path === '/metrics') return 'none'
  return 'web'
}
