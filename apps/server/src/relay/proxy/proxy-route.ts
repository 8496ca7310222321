import { ChannelStatus, LogType, Role } from '@one-api/contracts'
import { ChannelType } from '@one-api/contracts/channel-types'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../app-context.ts'
import { resolveGroupRatio } from '../../billing/pricing/group-ratio.ts'
import { ceilQuota } from '../../billing/pricing/quota.ts'
import { findChannelById } from '../../db/repositories/channels-repository.ts'
import { systemLog } from '../../db/repositories/logs-repository.ts'
import { readChannelId } from '../auth/channel-id.ts'
import { channelDisabled, RelayError, sendRelayError } from '../auth/relay-error.ts'
import { authenticateRelay } from '../auth/token-auth.ts'
import { RELAY_BODY_LIMIT } from '../front/relay-front.ts'
import { readRequestBody } from '../front/request-reader.ts'
import { refundWithin, reserveQuota } from '../pipeline/quota-reservation.ts'
import type { RelayServices } from '../relay-services.ts'

/** The model name proxy requests are priced and logged under (ModelRatio key). */
export const PROXY_MODEL_NAME = 'oneapi-proxy'
// Ratio 1 per request = 1000 quota = $0.002, unless ModelRatio sets `oneapi-proxy`.
const DEFAULT_PROXY_RATIO = 1
const PREFIX = /^\/v1\/oneapi\/proxy\/\d+/
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'content-length',
  'accept-encoding',
  'connection',
  'authorization',
  'transfer-encoding',
  'keep-alive',
  // The console's session cookie is this gateway's secret, not the target's.
  'cookie',
])
/**
 * Hop-by-hop headers, and the gateway's own: its request id (the log's) and its CORS headers must not
 * be replaced by the target's, which may well be another gateway.
 */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'x-oneapi-request-id',
])
const keepsResponseHeader = (name: string): boolean =>
  !DROPPED_RESPONSE_HEADERS.has(name) && !name.startsWith('access-control-')

/**
 * ANY /v1/oneapi/proxy/:channelid/* — raw pass-through to a Proxy channel (ChannelType.proxy) with the
 * channel's key as Authorization. Unlike one-api it is for administrators only, and every request
 * is billed per request and logged.
 */
export function registerProxyRoute(app: FastifyInstance, context: AppContext, services: RelayServices): void {
  app.all('/v1/oneapi/proxy/:channelid/*', async (request: FastifyRequest, reply: FastifyReply) => {
    const started = Date.now()
    const seconds = () => (Date.now() - started) / 1000
    // A client that leaves at any point (a long stream, say) ends the target's call too.
    const cancel = new AbortController()
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) cancel.abort()
    })
    try {
      const caller = await authenticateRelay(services.cache, request.headers.authorization, request.ip)
      if (caller.user.role < Role.Admin)
        throw new RelayError(403, 'The proxy route is for administrators only', 'proxy_forbidden')
      const channelId = readChannelId((request.params as { channelid: string }).channelid)
      const channel = await findChannelById(context.db, channelId)
      if (!channel || channel.type !== ChannelType.proxy)
        throw new RelayError(400, `Channel #${channelId} is not a proxy channel`, 'invalid_channel_id')
      if (channel.status !== ChannelStatus.enabled) throw channelDisabled(channelId)
      const ratio = context.options.ratios('ModelRatio')[PROXY_MODEL_NAME] ?? DEFAULT_PROXY_RATIO
      const quota = ceilQuota(
        ratio * 1000 * resolveGroupRatio(caller.user.group, context.options.ratios('GroupRatio')),
      )
      const ledgerFailed = (error: unknown, what: string) =>
        request.log.error({ err: error, reqId: request.id }, `${what} failed: the balances may not show it`)
      const reservation = await reserveQuota(services.ledger, caller, quota, ledgerFailed)
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) {
        if (!DROPPED_REQUEST_HEADERS.has(name) && typeof value === 'string') headers[name] = value
      }
      headers.authorization = channel.key
      const target = (channel.base_url ?? '').replace(/\/+$/, '') + request.url.replace(PREFIX, '')
      const body = await requestBody(request)
      let response: Awaited<ReturnType<typeof services.upstream.send>>
      const callStartedAfter = seconds()
      try {
        response = await services.upstream.send(
          { url: target, method: request.method, headers, body, signal: cancel.signal },
          { whole: false },
        )
      } catch {
        await refundWithin(services.ledger, reservation, ledgerFailed)
        // The channel was tried: counted under it, as the relay counts a failed request.
        services.metrics.recordRequest(String(channel.id), PROXY_MODEL_NAME, 'proxy', 502, seconds(), 0)
        const unreachable = new RelayError(
          502,
          'The proxy target could not be reached',
          'do_request_failed',
          'upstream_error',
        )
        return sendRelayError(reply, unreachable, request.id)
      }
      reply.code(response.statusCode)
      for (const [name, value] of Object.entries(response.headers)) {
        if (keepsResponseHeader(name) && value !== undefined) reply.header(name, value)
      }
      // Charged, logged and measured once the client has the whole answer (or left): a long
      // stream's time is the stream's, not the wait for its headers. The charge and its log are
      // stored together (Ledger.settle).
      const closedAfter = new Promise<number>((resolve) => reply.raw.once('close', () => resolve(seconds())))
      const contentType = String(response.headers['content-type'] ?? '')
      void closedAfter.then((total) => {
        const log = context.options.boolean('LogConsumeEnabled')
          ? systemLog({
              user_id: caller.user.id,
              type: LogType.consume,
              content: `proxy ${request.method} ${request.url.replace(PREFIX, '')} -> ${response.statusCode}`,
              username: caller.user.username,
              token_name: caller.token.name,
              model_name: PROXY_MODEL_NAME,
              quota,
              channel_id: channel.id,
              request_id: request.id,
              elapsed_time: Math.round(total * 1000),
              ip: request.ip,
              is_stream: contentType.includes('text/event-stream'),
            })
          : undefined
        services.ledger.settle(reservation, quota, channel.id, log).catch((error: unknown) => {
          ledgerFailed(error, 'settling a proxy request')
          if (log) services.logWriter.write(log)
        })
        // The target's time: everything after the gateway's own work before the call.
        services.metrics.recordRequest(
          String(channel.id),
          PROXY_MODEL_NAME,
          'proxy',
          response.statusCode,
          total,
          total - callStartedAfter,
        )
      })
      return reply.send(response.body)
    } catch (error) {
      // Refused before the target was tried: counted like the relay's refusals.
      const status = error instanceof RelayError ? error.status : 500
      services.metrics.recordRefused('proxy', status, seconds())
      return sendRelayError(reply, error, request.id)
    }
  })
}

/**
 * The request's body, as the client's bytes. Fastify reads none for GET (nor HEAD): a GET with a
 * body (a search API's query, say) is read here, so it reaches the target as one-api passes it.
 */
async function requestBody(request: FastifyRequest): Promise<Buffer | undefined> {
  if (Buffer.isBuffer(request.body)) return request.body.length > 0 ? request.body : undefined
  const raw = request.raw
  const hasBody = Number(raw.headers['content-length']) > 0 || raw.headers['transfer-encoding'] !== undefined
  if (request.method !== 'GET' || !hasBody || raw.readableEnded) return undefined
  const body = await new Promise<Buffer | 'too-large'>((resolve) =>
    readRequestBody(raw, RELAY_BODY_LIMIT, resolve),
  )
  if (body === 'too-large')
    throw new RelayError(413, 'The request body is too large', 'request_too_large', 'invalid_request_error')
  return body.length > 0 ? body : undefined
}
