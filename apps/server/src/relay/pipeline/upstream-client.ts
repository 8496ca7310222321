import type { ConnectionOptions } from 'node:tls'
import type { InlineImage, UpstreamError } from '@one-api/providers'
import { HttpsProxyAgent } from 'https-proxy-agent'
import { Agent, type Dispatcher, ProxyAgent } from 'undici'
import { CredentialCache } from './credential-cache.ts'
import { ImageFetcher, type ImageFetchOptions } from './image-fetcher.ts'
import { type StreamedResponse, StreamedResponseHandler } from './streamed-response.ts'
import type { UpstreamCall } from './upstream-call.ts'
import {
  type ExchangeLimits,
  type StreamSink,
  type UpstreamAnswer,
  UpstreamExchange,
} from './upstream-exchange.ts'
import { WebSocketExchange } from './websocket-exchange.ts'

/** A relay call in progress: its answer, and how to cancel it. */
export interface RunningCall {
  readonly done: Promise<UpstreamAnswer>
  cancel(reason: Error): void
}

export interface UpstreamClientOptions {
  /**
   * RELAY_PROXY: every connection is a CONNECT tunnel through this http(s):// proxy, WebSocket
   * upstreams' too.
   */
  proxy?: string
  /** RELAY_TIMEOUT: the most an upstream may take to its head, then between two pieces of its body. 0: none. */
  timeoutSeconds: number
  /** RELAY_MAX_RESPONSE_BYTES: the most an answer read whole into memory may hold. */
  maxResponseBytes: number
  /** RELAY_MAX_STREAM_SECONDS: the most a streamed call may last. 0: no limit. */
  maxStreamSeconds: number
  /** Extra TLS settings for the upstream connections (tests trust their own authority). */
  tls?: ConnectionOptions
  /** How long connecting (TCP and TLS, through the proxy too) may take. */
  connectTimeoutMs?: number
  /** Most connections open at once to one origin; calls beyond wait for one to be free. */
  connections?: number
  /** How the images a request names are fetched for upstreams that take them inline only. */
  images?: ImageFetchOptions
}

const DEFAULT_IMAGE_OPTIONS: ImageFetchOptions = {
  maxBytes: 5 * 1024 * 1024,
  timeoutSeconds: 10,
  allowPrivate: false,
}

const CONNECT_TIMEOUT_MS = 10_000
/** An idle connection is kept this long when the upstream announces no keep-alive time of its own. */
const KEEP_ALIVE_MS = 30_000
/** An upstream's announced keep-alive time is trusted up to this long ... */
const KEEP_ALIVE_MAX_MS = 600_000
/** ... less this margin, so a call never goes out on a connection the upstream is closing. */
const KEEP_ALIVE_MARGIN_MS = 2_000
/** TLS sessions kept per origin, so a new connection resumes one instead of a full handshake. */
const CACHED_TLS_SESSIONS = 100

/**
 * The one HTTP client for upstream providers: undici's Agent (ProxyAgent when RELAY_PROXY is set)
 * with keep-alive connections per origin, TLS session reuse, and RELAY_TIMEOUT's limits. Answers
 * read whole go through a dispatcher with undici's maxResponseSize; streamed calls through one
 * without it (a stream's length is bounded by RELAY_MAX_STREAM_SECONDS instead).
 */
export class UpstreamClient {
  private readonly whole: Dispatcher
  private readonly streaming: Dispatcher
  private readonly limits: ExchangeLimits
  /** RELAY_TIMEOUT in milliseconds (0: none), for WebSocket upstreams' silences. */
  private readonly idleMs: number
  private readonly images: ImageFetcher
  /** RELAY_PROXY's tunnel for WebSocket upstreams (the `ws` package takes a node:http agent). */
  private readonly webSocketAgent: HttpsProxyAgent<string> | undefined
  /** Tokens of channels whose upstream takes an exchanged token (Adaptor.credentialExchange). */
  readonly credentials = new CredentialCache((call) => this.send(call, { whole: true }))

  constructor(options: UpstreamClientOptions) {
    this.images = new ImageFetcher(options.images ?? DEFAULT_IMAGE_OPTIONS)
    this.idleMs = options.timeoutSeconds * 1000
    this.limits = {
      maxBufferedBytes: options.maxResponseBytes,
      maxStreamMs: options.maxStreamSeconds * 1000,
    }
    this.whole = dispatcher(options, options.maxResponseBytes)
    this.streaming = dispatcher(options, -1)
    this.webSocketAgent = webSocketProxyAgent(options)
  }

  /**
   * The relay's call: the answer is gathered, or streamed into `sink` when it is a 2xx answer the
   * sink takes. Cancel it through the returned exchange.
   */
  start(call: UpstreamCall, sink?: StreamSink): RunningCall {
    if (call.webSocket) {
      const limits = { ...this.limits, idleMs: this.idleMs }
      return new WebSocketExchange(
        { url: call.url, body: call.body, isLast: call.webSocket.isLast, agent: this.webSocketAgent },
        sink,
        limits,
      )
    }
    const exchange = new UpstreamExchange(sink, this.limits)
    dispatch(sink ? this.streaming : this.whole, call, exchange)
    return exchange
  }

  /** A call answered as a Node stream (the pass-through proxy, channel tests). */
  send(call: UpstreamCall, options: { whole: boolean }): Promise<StreamedResponse> {
    const handler = new StreamedResponseHandler(call.signal)
    dispatch(options.whole ? this.whole : this.streaming, call, handler)
    return handler.response
  }

  /** The images of `urls`, for an adaptor whose upstream takes them inline (image-fetcher.ts). */
  fetchImages(urls: readonly string[]): Promise<Map<string, InlineImage> | UpstreamError> {
    return this.images.fetchAll(urls)
  }

  /** Closes every connection; calls in flight end in an error. */
  async close(): Promise<void> {
    this.webSocketAgent?.destroy()
    await Promise.all([this.whole.destroy(), this.streaming.destroy(), this.images.close()])
  }
}

/**
 * The CONNECT tunnel agent for WebSocket upstreams when RELAY_PROXY is set: as for HTTP calls,
 * credentials in the proxy's URL become Proxy-Authorization and a wss:// origin's TLS runs inside
 * the tunnel. Each socket is its own tunnel (a WebSocket keeps its connection to itself).
 */
function webSocketProxyAgent(options: UpstreamClientOptions): HttpsProxyAgent<string> | undefined {
  if (!options.proxy) return undefined
  // The handshake's own time limit (websocket-exchange.ts) covers the tunnel's opening.
  return new HttpsProxyAgent(options.proxy, { ...options.tls })
}

function dispatcher(options: UpstreamClientOptions, maxResponseSize: number): Dispatcher {
  // 0 disables undici's limits: without RELAY_TIMEOUT, long generations must not be cut.
  const timeout = options.timeoutSeconds > 0 ? options.timeoutSeconds * 1000 : 0
  const connectTimeout = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS
  const tls = { ...options.tls, timeout: connectTimeout, maxCachedSessions: CACHED_TLS_SESSIONS }
  const common = {
    connections: options.connections ?? 8192,
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_MAX_MS,
    keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
    headersTimeout: timeout,
    bodyTimeout: timeout,
    maxResponseSize,
  }
  if (!options.proxy) return new Agent({ ...common, connect: tls })
  // Credentials in the URL become the CONNECT request's Proxy-Authorization; the origin's TLS
  // runs inside the tunnel, so the proxy sees neither the request nor the channel's key.
  return new ProxyAgent({ ...common, uri: options.proxy, requestTls: tls, proxyTls: tls })
}

/** Hands the call to undici; a call it refuses (a bad URL or header) reaches the handler's onError. */
function dispatch(dispatcher: Dispatcher, call: UpstreamCall, handler: Dispatcher.DispatchHandler): void {
  try {
    const { origin, path } = splitUrl(call.url)
    dispatcher.dispatch(
      { origin, path, method: call.method as Dispatcher.HttpMethod, headers: call.headers, body: call.body },
      handler,
    )
  } catch (error) {
    handler.onError!(error as Error)
  }
}

/** `http://host:port/path?q` → origin and path, without building a URL object per request. */
export function splitUrl(url: string): { origin: string; path: string } {
  const scheme = url.indexOf('://')
  const slash = scheme === -1 ? -1 : url.indexOf('/', scheme + 3)
  if (slash === -1) return { origin: url, path: '/' }
  return { origin: url.slice(0, slash), path: url.slice(slash) }
}
