import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../app-context.ts'
import { RelayError } from './auth/relay-error.ts'
import { registerBillingRoutes } from './billing-routes.ts'
import { corsHeaders } from './front/client-response.ts'
import { RELAY_BODY_LIMIT } from './front/relay-front.ts'
import { PROMETHEUS_CONTENT_TYPE } from './metrics/prometheus.ts'
import { registerModelRoutes } from './models-routes.ts'
import { registerProxyRoute } from './proxy/proxy-route.ts'
import type { RelayServices } from './relay-services.ts'

// OpenAI endpoints this gateway does not serve: a clear 501 in OpenAI's shape, not a 404.
const NOT_IMPLEMENTED = [
  '/v1/edits',
  '/v1/images/edits',
  '/v1/images/variations',
  '/v1/files',
  '/v1/files/*',
  '/v1/fine_tuning/*',
  '/v1/fine-tunes',
  '/v1/fine-tunes/*',
  '/v1/assistants',
  '/v1/assistants/*',
  '/v1/threads',
  '/v1/threads/*',
  '/v1/batches',
  '/v1/batches/*',
  '/v1/vector_stores',
  '/v1/vector_stores/*',
]

/**
 * The relay surface served by Fastify (/v1/models, the 501s, the billing dashboard, the proxy,
 * preflights), in its own scope: raw bodies, CORS, larger limit. The relayed POST endpoints
 * themselves are served by the relay front (front/relay-front.ts) before Fastify sees them.
 */
export async function registerRelayRoutes(
  app: FastifyInstance,
  context: AppContext,
  services: RelayServices,
) {
  await app.register(async (relay) => {
    relay.removeAllContentTypeParsers()
    // The body is kept as the client's bytes so it can be passed through unchanged.
    relay.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: RELAY_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    )
    relay.addHook('onRequest', (request, reply, done) => {
      reply.headers(corsHeaders(request.headers.origin))
      if (request.method !== 'OPTIONS') return done()
      // A preflight is answered here; the chain stops.
      reply
        .header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS')
        .header(
          'access-control-allow-headers',
          request.headers['access-control-request-headers'] ?? 'authorization, content-type',
        )
        .header('access-control-max-age', '86400')
        .code(204)
        .send()
    })
    relay.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500
      const message =
        status === 413
          ? 'The request body is too large'
          : status === 500
            ? 'Internal error of the gateway'
            : error.message
      if (status === 500) request.log.error({ err: error }, 'relay error')
      reply
        .code(status)
        .send(
          new RelayError(status, message, error.code ?? 'invalid_request', 'invalid_request_error').toBody(
            request.id,
          ),
        )
    })
    relay.options('/v1/*', async () => undefined)
    for (const url of NOT_IMPLEMENTED) {
      relay.all(url, async (request, reply) => {
        const error = new RelayError(501, 'API not implemented', 'api_not_implemented')
        return reply.code(501).send(error.toBody(request.id))
      })
    }
    relay.delete('/v1/models/:model', async (request, reply) =>
      reply
        .code(501)
        .send(new RelayError(501, 'API not implemented', 'api_not_implemented').toBody(request.id)),
    )
    registerModelRoutes(relay, context, services)
    registerBillingRoutes(relay, context, services)
    registerProxyRoute(relay, context, services)
  })
  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', PROMETHEUS_CONTENT_TYPE)
    return services.metrics.registry.render()
  })
}
