import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import fastifyCookie from '@fastify/cookie'
import { nestsDeeperThan, tooDeepMessage } from '@one-api/contracts/json-depth'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import { managementRoutes } from './admin/route-table.ts'
import type { AppContext } from './app-context.ts'
import { authenticate } from './auth/authenticate.ts'
import { envelopeStatus, installErrorHandler } from './http/error-handler.ts'
import { badRequest } from './http/errors.ts'
import { installJsonBodyParser } from './http/json-body.ts'
import { installNulByteRefusal } from './http/nul-bytes.ts'
import { trackOpenConnections } from './http/open-connections.ts'
import { installRateLimits } from './http/rate-limit.ts'
import { generateRequestId, REQUEST_ID_HEADER } from './http/request-id.ts'
import { registerRoutes } from './http/route.ts'
import { RelayError, shuttingDown } from './relay/auth/relay-error.ts'
import { sendRelayErrorAnswer } from './relay/front/client-response.ts'
import { createRelayFront, type RelayFront } from './relay/front/relay-front.ts'
import { registerRelayRoutes } from './relay/relay-routes.ts'
import { installWebConsole } from './web/static.ts'

const MANAGEMENT_BODY_LIMIT = 1024 * 1024
/** Paths whose clients read OpenAI's error shape rather than the management envelope. */
const RELAY_PATH = /^\/(v1|dashboard)(\/|$)/

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger']
  /** The process's own logger (main.ts), so Fastify writes through the same destination. */
  loggerInstance?: FastifyBaseLogger
}

const IDLE_SWEEP_MS = 100
/** After the server closed (its connections are gone), how long relay requests may take to settle. */
const RELAY_DRAIN_TIMEOUT_MS = 10_000

/**
 * A URL Fastify cannot decode (a broken %-escape) is refused before any hook runs: its answer gets
 * the request id and the shape its caller reads here (it was Fastify's own, without an id).
 */
function answerBadUrl(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, request.id)
  const message = `The URL is not valid: ${error.message}`
  if (!RELAY_PATH.test(request.url)) {
    reply.code(envelopeStatus(400)).send({ success: false, message })
    return
  }
  const refusal = new RelayError(400, message, 'invalid_url', 'invalid_request_error')
  reply.code(400).send(refusal.toBody(request.id))
}

/**
 * A request that reaches the server once it is shutting down (on a keep-alive connection opened
 * before): 503 with its request id, in the shape its caller reads, and the connection closed
 * (Fastify's own answer carried no request id and the management shape nowhere).
 */
function answerShuttingDown(request: IncomingMessage, response: ServerResponse): void {
  const requestId = generateRequestId()
  response.shouldKeepAlive = false
  request.resume()
  const refusal = shuttingDown()
  if (RELAY_PATH.test(request.url ?? '')) {
    sendRelayErrorAnswer(response, requestId, refusal)
    return
  }
  const body = JSON.stringify({ success: false, message: refusal.message })
  response.writeHead(503, {
    [REQUEST_ID_HEADER]: requestId,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  })
  response.end(body)
}

/** Builds the whole HTTP application without listening (tests inject or listen on port 0). */
export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  // The relay's POST routes are served by a lean handler in front of Fastify:
  // they are most of the traffic, and Fastify's routing, hooks and reply cost more than the
  // gateway's own work there (docs/decisions/relay-front-door.md). Everything else goes through Fastify.
  let relayFront: RelayFront | undefined
  let closing = false
  let connections: ReturnType<typeof trackOpenConnections> | undefined
  const app = Fastify({
    serverFactory: (fastifyHandler) => {
      const server = createServer((request, response) => {
        if (relayFront?.handle(request, response)) return
        if (closing) answerShuttingDown(request, response)
        else fastifyHandler(request, response)
      })
      // Fastify's defaults for the servers it creates itself: long keep-alive, no request timeout
      // (uploads and long generations must not be cut by the server).
      server.keepAliveTimeout = 72_000
      server.requestTimeout = 0
      server.setTimeout(0)
      connections = trackOpenConnections(server)
      return server
    },
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? false }),
    genReqId: generateRequestId,
    requestIdHeader: false,
    bodyLimit: MANAGEMENT_BODY_LIMIT,
    // `/api/channel/update_balance/1/` is `/api/channel/update_balance/1`: one-api's console and
    // scripts call routes with and without the trailing slash.
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: context.config.TRUST_PROXY,
    forceCloseConnections: 'idle',
    // answerShuttingDown() answers instead.
    return503OnClosing: false,
    frameworkErrors: answerBadUrl,
  })
  relayFront = createRelayFront(context, context.relay, app.log)
  // Shutting down: new relay requests are refused; connections whose answer ends later are closed
  // as soon as they fall idle (Node closes only those idle when the close begins, and keep-alive
  // would hold the others for its whole timeout), and so are those that never sent a request
  // (open-connections.ts); relay requests still at work, cut off or not,
  // finish their billing and logs before the ledger and the log writer close (main.ts).
  let idleSweep: NodeJS.Timeout | undefined
  app.addHook('preClose', (done) => {
    closing = true
    relayFront?.close()
    idleSweep = setInterval(() => connections?.closeUnanswering(), IDLE_SWEEP_MS)
    done()
  })
  app.addHook('onClose', async () => {
    clearInterval(idleSweep)
    if (relayFront && !(await relayFront.drained(RELAY_DRAIN_TIMEOUT_MS))) {
      app.log.warn('relay requests still at work after the server closed; closing without them')
    }
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
  installJsonBodyParser(app)
  installErrorHandler(app)
  // Routes walk their JSON bodies (validation, serialising a channel's config): a body nested past
  // MAX_JSON_DEPTH is refused before (the relay reads its bodies as bytes and checks them itself).
  app.addHook('preValidation', (request, _reply, done) => {
    done(nestsDeeperThan(request.body) ? badRequest(tooDeepMessage()) : undefined)
  })
  installNulByteRefusal(app)
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
