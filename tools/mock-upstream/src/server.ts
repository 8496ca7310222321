/**
 * A fake OpenAI-format upstream on plain node:http, for relay tests and the benchmark. Replies are
 * precomputed and cached where possible; see usage-rules.ts for the token numbers it reports and
 * faults.ts for fault injection.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { handleMessages, refuseAnthropicHeaders } from './anthropic.ts'
import { checkAwsSignature, MOCK_AWS_CREDENTIALS } from './aws-signature.ts'
import { handleConverse, handleInvoke, sendBedrockError } from './bedrock.ts'
import { handleChat } from './chat.ts'
import { handleCohereChat, handleCohereEmbed, handleCohereRerank, handleJinaRerank } from './cohere.ts'
import { handleCompletions } from './completions.ts'
import { DashScope, isDashScopePath } from './dashscope.ts'
import {
  handleEmbeddings,
  handleImages,
  handleModels,
  handleModerations,
  handleTranscription,
} from './endpoints.ts'
import { errorSenderFor } from './error-senders.ts'
import { sendJson } from './errors.ts'
import {
  type FaultPlan,
  type FaultRule,
  FaultRules,
  faultsFromHeaders,
  faultsFromModel,
  parseFaultRule,
} from './faults.ts'
import {
  type GeminiRoute,
  geminiKeyOf,
  handleGemini,
  matchGeminiRoute,
  refuseGeminiKey,
  sendGeminiError,
} from './gemini.ts'
import { parseMultipart } from './multipart-fields.ts'
import { handleOllamaChat, handleOllamaEmbed } from './ollama.ts'
import { matchProviderRoute, type ProviderRoute, refuseProviderAuth } from './providers/routes.ts'
import { isReplicatePath, Replicate } from './replicate.ts'
import { handleResponses } from './responses.ts'
import { matchRoute, type Route } from './routes.ts'
import { handleSpeech } from './speech.ts'
import { handleVertex, VertexAuth } from './vertex.ts'
import { isSparkPath, SparkServer } from './xunfei.ts'

export interface MockUpstreamOptions {
  port?: number
  host?: string
  /** When set, only these keys (Bearer or Azure `api-key`) are accepted; others get 401 invalid_api_key. */
  apiKeys?: readonly string[]
  /** How many recent requests to keep for assertions (0 turns the log off, e.g. for benchmarks). */
  requestLogSize?: number
  /** AWS access key id → secret key that Bedrock calls must be signed with (MOCK_AWS_CREDENTIALS unless set). */
  awsCredentials?: Readonly<Record<string, string>>
}

export interface RecordedRequest {
  method: string
  /** Path including the query string. */
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
  /** The parsed JSON body, when it was JSON. */
  json: Record<string, unknown> | undefined
}

export interface MockUpstream {
  /** e.g. http://127.0.0.1:41234 (append /v1 for SDK base URLs). */
  readonly url: string
  readonly port: number
  /** Recent requests, oldest first (control calls are not recorded). */
  readonly requests: readonly RecordedRequest[]
  addFault(rule: FaultRule): void
  clearFaults(): void
  /** Google's side of Vertex AI: service accounts whose assertions the token endpoint takes, tokens issued. */
  readonly vertex: Pick<VertexAuth, 'addServiceAccount' | 'revokeTokens' | 'issued'>
  /** Clears the request log and the fault rules. */
  reset(): void
  close(): Promise<void>
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

function keyOf(headers: IncomingHttpHeaders): string {
  const bearer = headers.authorization?.replace(/^Bearer\s+/i, '')
  const other = headers['api-key'] ?? headers['x-api-key']
  return bearer ?? (typeof other === 'string' ? other : '')
}

function parseJsonBody(body: Buffer, contentType: string): Record<string, unknown> | undefined | 'invalid' {
  if (!contentType.includes('json') && body[0] !== 0x7b) return undefined
  try {
    const parsed = JSON.parse(body.toString('utf8'))
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : 'invalid'
  } catch {
    return 'invalid'
  }
}

export async function startMockUpstream(options: MockUpstreamOptions = {}): Promise<MockUpstream> {
  const rules = new FaultRules()
  const log: RecordedRequest[] = []
  const logSize = options.requestLogSize ?? 200
  const apiKeys = options.apiKeys ? new Set(options.apiKeys) : undefined
  const dashScope = new DashScope(apiKeys)
  const replicate = new Replicate(apiKeys)
  const vertexAuth = new VertexAuth()
  const spark = new SparkServer(options.apiKeys)

  function control(request: IncomingMessage, response: ServerResponse, pathname: string, body: Buffer) {
    const route = `${request.method} ${pathname}`
    if (route === 'POST /__mock/faults') {
      let input: unknown
      try {
        input = JSON.parse(body.toString('utf8'))
      } catch {
        return sendJson(response, 400, JSON.stringify({ error: 'body must be JSON' }))
      }
      const parsed = (Array.isArray(input) ? input : [input]).map(parseFaultRule)
      const invalid = parsed.find((rule) => typeof rule === 'string')
      if (invalid) return sendJson(response, 400, JSON.stringify({ error: invalid }))
      for (const rule of parsed as FaultRule[]) rules.add(rule)
      return sendJson(response, 200, JSON.stringify({ ok: true, rules: rules.list().length }))
    }
    if (route === 'GET /__mock/faults') return sendJson(response, 200, JSON.stringify(rules.list()))
    if (route === 'DELETE /__mock/faults') {
      rules.clear()
      return sendJson(response, 200, '{"ok":true}')
    }
    if (route === 'GET /__mock/requests') {
      const requests = log.map(({ method, path, headers, body: bytes }) => ({
        method,
        path,
        headers,
        body: bytes.toString('utf8'),
      }))
      return sendJson(response, 200, JSON.stringify(requests))
    }
    if (route === 'POST /__mock/reset') {
      rules.clear()
      log.length = 0
      return sendJson(response, 200, '{"ok":true}')
    }
    sendJson(response, 404, JSON.stringify({ error: `unknown control route ${route}` }))
  }

  function record(
    request: IncomingMessage,
    path: string,
    body: Buffer,
    json: Record<string, unknown> | undefined,
  ) {
    if (logSize === 0) return
    log.push({ method: request.method ?? '', path, headers: request.headers, body, json })
    if (log.length > logSize) log.shift()
  }

  let requestCount = 0

  async function relay(
    request: IncomingMessage,
    response: ServerResponse,
    route: Route & { provider?: ProviderRoute },
    body: Buffer,
    path: string,
  ): Promise<void> {
    // OpenAI names each request on its side in every answer; its SDKs show it as `_request_id`.
    response.setHeader('x-request-id', `req_mock_${++requestCount}`)
    const contentType = request.headers['content-type'] ?? ''
    const json = route.endpoint === 'models' ? {} : parseJsonBody(body, contentType)
    record(request, path, body, json === 'invalid' ? undefined : json)
    const anthropic = route.endpoint === 'messages'
    const bedrock = route.endpoint.startsWith('converse') || route.endpoint.startsWith('invoke')
    const vertex = route.endpoint === 'vertex'
    const fail = errorSenderFor(route.endpoint)
    const refusal = route.provider
      ? refuseProviderAuth(route.provider, request.headers, body, path.split('?', 1)[0]!)
      : undefined
    if (refusal) return sendJson(response, refusal.status, refusal.body)
    if (route.provider) {
      // Checked above, as that provider checks its credentials.
    } else if (anthropic) {
      if (refuseAnthropicHeaders(response, request.headers, apiKeys)) return
    } else if (bedrock) {
      const credentials = options.awsCredentials ?? MOCK_AWS_CREDENTIALS
      const signature = await checkAwsSignature('POST', path, request.headers, body, 'bedrock', credentials)
      if (signature) return sendBedrockError(response, 403, signature.errorType, signature.message)
    } else if (vertex) {
      if (vertexAuth.refuseBearer(response, request.headers)) return
    } else if (apiKeys && !apiKeys.has(keyOf(request.headers))) return fail(response, 401, '')
    if (json === 'invalid') {
      const message =
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)"
      return sendJson(
        response,
        400,
        JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } }),
      )
    }
    const form = json === undefined ? parseMultipart(body, contentType) : undefined
    const rawModel = route.model ?? json?.model ?? json?.Model ?? form?.fields.model ?? route.deployment ?? ''
    const model = typeof rawModel === 'string' ? rawModel : ''
    const faults: FaultPlan = {
      ...rules.take({ model, authorization: keyOf(request.headers), path }),
      ...faultsFromModel(model),
      ...faultsFromHeaders(request.headers),
    }
    if (faults.delayMs) await sleep(faults.delayMs)
    if (faults.status !== undefined && faults.status >= 400)
      return fail(response, faults.status, model, faults.body)
    // A success status with a body of the test's own: a provider answering 200 with something odd.
    if (faults.body !== undefined) return fail(response, faults.status ?? 200, model, faults.body)
    // Zhipu reports a stream's usage unasked (here as a usage chunk of its own).
    const input =
      route.provider?.provider === 'zhipu'
        ? { ...json, stream_options: { include_usage: true } }
        : (json ?? {})
    if (route.provider?.native) {
      return route.provider.native(response, input, faults, new URLSearchParams(path.split('?')[1] ?? ''))
    }
    switch (route.endpoint) {
      case 'chat':
        return handleChat(response, input, model, faults)
      case 'messages':
        return handleMessages(response, input, model, faults)
      case 'vertex':
        return handleVertex(
          response,
          input,
          route,
          path.includes('?') ? path.slice(path.indexOf('?') + 1) : '',
          faults,
        )
      case 'invoke':
      case 'invoke-with-response-stream':
        return handleInvoke(response, input, model, route.endpoint === 'invoke-with-response-stream', faults)
      case 'converse':
      case 'converse-stream':
        return handleConverse(response, input, model, route.endpoint === 'converse-stream', faults)
      case 'cohere-chat':
        return handleCohereChat(response, input, model, faults)
      case 'cohere-embed':
        return handleCohereEmbed(response, input, model)
      case 'ollama-chat':
        return handleOllamaChat(response, input, model, faults)
      case 'ollama-embed':
        return handleOllamaEmbed(response, input, model)
      case 'rerank':
        return handleJinaRerank(response, input, model)
      case 'cohere-rerank':
        return handleCohereRerank(response, input, model)
      case 'responses':
        return handleResponses(response, input, model, faults)
      case 'completions':
        return handleCompletions(response, input, model, faults)
      case 'embeddings':
        return handleEmbeddings(response, input, model, faults)
      case 'moderations':
        return handleModerations(response, input, model)
      case 'images':
        return handleImages(response, input, model, faults)
      case 'speech':
        return handleSpeech(response, input, model, faults)
      case 'transcriptions':
      case 'translations':
        return handleTranscription(response, form, route.endpoint === 'translations', faults)
      case 'models':
        return handleModels(response)
    }
  }

  /** Google's Gemini API: its key, its error shape, its paths (gemini.ts). */
  async function relayGemini(
    request: IncomingMessage,
    response: ServerResponse,
    route: GeminiRoute,
    body: Buffer,
    path: string,
  ): Promise<void> {
    const query = path.includes('?') ? path.slice(path.indexOf('?') + 1) : ''
    const json = parseJsonBody(body, request.headers['content-type'] ?? 'application/json')
    if (logSize > 0) {
      log.push({
        method: 'POST',
        path,
        headers: request.headers,
        body,
        json: json === 'invalid' ? undefined : json,
      })
      if (log.length > logSize) log.shift()
    }
    const key = geminiKeyOf(request.headers, query)
    if (refuseGeminiKey(response, key, apiKeys)) return
    if (json === 'invalid' || json === undefined) {
      return sendJson(
        response,
        400,
        '{"error":{"code":400,"message":"Invalid JSON payload received.","status":"INVALID_ARGUMENT"}}',
      )
    }
    const faults: FaultPlan = {
      ...rules.take({ model: route.model, authorization: key, path }),
      ...faultsFromModel(route.model),
      ...faultsFromHeaders(request.headers),
    }
    if (faults.delayMs) await sleep(faults.delayMs)
    if (faults.status !== undefined && faults.status >= 400)
      return sendGeminiError(response, faults.status, route.model, faults.body)
    if (faults.body !== undefined)
      return sendGeminiError(response, faults.status ?? 200, route.model, faults.body)
    return handleGemini(response, json, route, query, faults)
  }

  function handle(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> | void {
    const path = request.url ?? '/'
    const pathname = path.split('?', 1)[0]
    if (pathname.startsWith('/__mock/')) return control(request, response, pathname, body)
    if (isDashScopePath(pathname)) {
      const json = parseJsonBody(body, request.headers['content-type'] ?? '')
      const parsed = json === 'invalid' ? undefined : json
      record(request, path, body, parsed)
      return dashScope.handle(request.method ?? 'GET', pathname, request.headers, parsed, response)
    }
    if (isReplicatePath(pathname)) {
      const json = parseJsonBody(body, request.headers['content-type'] ?? '')
      const parsed = json === 'invalid' ? undefined : json
      record(request, path, body, parsed)
      return replicate.handle(request.method ?? 'GET', pathname, request.headers, parsed, response)
    }
    if (pathname === '/token' && request.method === 'POST') {
      record(request, path, body, undefined)
      return vertexAuth.token(response, request.headers, body)
    }
    const gemini = matchGeminiRoute(request.method ?? 'GET', pathname)
    if (gemini) return relayGemini(request, response, gemini, body, path)
    const provider = matchProviderRoute(request.method ?? 'GET', pathname, request.headers)
    const route = provider
      ? { endpoint: provider.endpoint, provider }
      : matchRoute(request.method ?? 'GET', pathname)
    if (!route) {
      const message = `Invalid URL (${request.method} ${pathname})`
      return sendJson(
        response,
        404,
        JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } }),
      )
    }
    return relay(request, response, route, body, path)
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
      Promise.resolve(handle(request, response, body)).catch(() => {
        if (!response.headersSent)
          sendJson(response, 500, '{"error":{"message":"mock upstream failure","type":"server_error"}}')
        else response.destroy()
      })
    })
  })
  server.keepAliveTimeout = 65_000
  server.on('upgrade', (request, socket, head) => {
    const pathname = (request.url ?? '/').split('?', 1)[0]!
    if (isSparkPath(pathname)) spark.upgrade(request, socket, head)
    else socket.destroy()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    requests: log,
    vertex: vertexAuth,
    addFault: (rule) => rules.add(rule),
    clearFaults: () => rules.clear(),
    reset: () => {
      rules.clear()
      log.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        spark.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
