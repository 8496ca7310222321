import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { type MetricsRegistry, PROMETHEUS_CONTENT_TYPE } from './prometheus.ts'

/**
 * `GET /metrics` in Prometheus' text format. Open by default, as Prometheus expects; with
 * METRICS_TOKEN set, only a scraper sending `Authorization: Bearer <token>` may read it (the
 * figures show which channels and models carry how much traffic).
 */
export function registerMetricsRoute(app: FastifyInstance, registry: MetricsRegistry, token?: string): void {
  const expected = token ? digest(`Bearer ${token}`) : undefined
  app.get('/metrics', async (request, reply) => {
    const given = request.headers.authorization
    // Digests of equal length, so the comparison takes the same time whatever was sent.
    if (expected && !(given && timingSafeEqual(digest(given), expected))) {
      reply.code(401).header('www-authenticate', 'Bearer realm="metrics"')
      return { success: false, message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' }
    }
    reply.header('content-type', PROMETHEUS_CONTENT_TYPE)
    return registry.render()
  })
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}
