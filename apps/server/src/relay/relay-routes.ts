import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../app-context.ts'
import { RelayError, sendRelayError } from './auth/relay-error.ts'
import { authenticateRelay } from './auth/token-auth.ts'
import { registerBillingRoutes } from './billing-routes.ts'
import { corsHeaders } from './front/client-response.ts'
import { RELAY_BODY_LIMIT } from './front/relay-front.ts'
import { registerMetricsRoute } from './metrics/metrics-route.ts'
import { registerModelRoutes } from './models-routes.ts'
import { registerProxyRoute } from './proxy/proxy-route.ts'
import type { RelayServices } from './relay-services.ts'

/**
 * OpenAI's API resources, the first path segment after /v1 of every endpoint in its published
 * OpenAPI document (plus the retired edits, fine-tunes and engines). Whatever of them this gateway
 * does not serve (the Responses API, files, assistants, GET /v1/chat/completions, ...) answers a
 * clear 501 in OpenAI's shape; a path outside them is not an OpenAI endpoint and answers 404.
 * https://platform.openai.com/docs/api-reference
 */
const OPENAI_RESOURCES = [
  'assistants',
  'audio',
  'batches',
  'chat',
  'chatkit',
  'completions',
  'containers',
  'content_provenance_checks',
  'conversations',
  'edits',
  'embeddings',
  'engines',
  'evals',
  'files',
  'fine-tunes',
  'fine_tuning',
  'images',
  'models',
  'moderations',
  'organization',
  'projects',
  'realtime',
  'responses',
  'skills',
  'threads',
  'uploads',
  'vector_stores',
  'videos',
]

const UNSERVED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/**
 * Every method and path under OpenAI's resources that no route above serves answers 501 (the
 * relayed POST endpoints never reach Fastify: the relay front serves them), to a caller whose
 * token is good, as one-api checks it first: a bad key gets its 401 here too.
 */
function registerNotImplemented(relay: FastifyInstance, services: RelayServices): void {
  const notImplemented = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await authenticateRelay(services.cache, request.headers.authorization, request.ip)
      throw new RelayError(501, 'API not implemented', 'api_not_implemented')
    } catch (error) {
      return sendRelayError(reply, error, request.id)
    }
  }
  for (const resource of OPENAI_RESOURCES) {
    for (const url of [`/v1/${resource}`, `/v1/${resource}/*`]) {
      for (const method of UNSERVED_METHODS) {
        if (!relay.hasRoute({ method, url })) relay.route({ method, url, handler: notImplemented })
      }
    }
  }
}

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
    // Gemini's API paths (relay-front.ts): browsers ask before calling them too.
    relay.options('/v1beta/*', async () => undefined)
    relay.options('/dashboard/*', async () => undefined)
    registerModelRoutes(relay, context, services)
    registerBillingRoutes(relay, context, services)
    registerProxyRoute(relay, context, services)
    registerNotImplemented(relay, services)
  })
  registerMetricsRoute(app, services.metrics.registry, context.config.METRICS_TOKEN)
}
