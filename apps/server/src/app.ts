import { randomBytes } from 'node:crypto'
import fastifyCookie from '@fastify/cookie'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { managementRoutes } from './admin/route-table.ts'
import type { AppContext } from './app-context.ts'
import { authenticate } from './auth/authenticate.ts'
import { installErrorHandler } from './http/error-handler.ts'
import { installRateLimits } from './http/rate-limit.ts'
import { registerRoutes } from './http/route.ts'
import { registerRelayRoutes } from './relay/relay-routes.ts'
import { installWebConsole } from './web/static.ts'

export const REQUEST_ID_HEADER = 'X-Oneapi-Request-Id'
const MANAGEMENT_BODY_LIMIT = 1024 * 1024

/** Request ids as one-api makes them: a timestamp and 8 random characters. */
// The random part is a per-process prefix plus a counter: unique across nodes and restarts
// without drawing random bytes for every request. The timestamp is formatted once per millisecond.
const NODE_PREFIX = randomBytes(2).toString('hex')
let sequence = 0
let stampMillisecond = 0
let stamp = ''
function generateRequestId(): string {
  const now = Date.now()
  if (now !== stampMillisecond) {
    stampMillisecond = now
    stamp = new Date(now).toISOString().replace(/\D/g, '').slice(0, 17)
  }
  sequence = (sequence + 1) & 0xffff
  return stamp + NODE_PREFIX + sequence.toString(16).padStart(4, '0')
}

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger']
}

/** Builds the whole HTTP application without listening (tests inject or listen on port 0). */
export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: generateRequestId,
    requestIdHeader: false,
    bodyLimit: MANAGEMENT_BODY_LIMIT,
    trustProxy: context.config.TRUST_PROXY,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  })
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done()
  })
  // Every management route must declare its minimum role (see admin/route-table.ts).
  app.addHook('onRoute', (route) => {
    const path = route.url ?? route.path
    if (path.startsWith('/api/') && route.config?.access === undefined) {
      throw new Error(`management route ${route.method} ${path} has no access level`)
    }
  })
  await app.register(fastifyCookie)
  installErrorHandler(app)
  installRateLimits(app, context)
  app.addHook('preHandler', (request, reply, done) => {
    const access = request.routeOptions.config?.access
    if (!access) return done()
    authenticate(context, request, reply, access).then(() => done(), done)
  })
  registerRoutes(app, managementRoutes(context))
  await registerRelayRoutes(app, context, context.relay)
  await installWebConsole(app, context.config.WEB_DIST_PATH)
  return app
}
