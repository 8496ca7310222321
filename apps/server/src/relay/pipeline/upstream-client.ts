import type { ConnectionOptions } from 'node:tls'
import { parseProxy } from '../upstream-http/proxy-tunnel.ts'
import { type StreamedResponse, StreamedResponseHandler } from '../upstream-http/streamed-response.ts'
import { UpstreamAgent } from '../upstream-http/upstream-agent.ts'
import { type StreamSink, UpstreamExchange } from './upstream-exchange.ts'

/** One call to an upstream provider, as an adaptor builds it. */
export interface UpstreamCall {
  url: string
  method: string
  headers: Record<string, string>
  body?: Buffer | string
  signal?: AbortSignal
}

/**
 * The one HTTP client for upstream providers: keep-alive connections per origin (upstream-http/),
 * through RELAY_PROXY when it is set, with RELAY_TIMEOUT's limits.
 */
export class UpstreamClient {
  private readonly agent: UpstreamAgent

  /** `tls`: extra TLS settings for the upstream connections (tests trust their own authority). */
  constructor(options: { proxy?: string; timeoutSeconds: number; tls?: ConnectionOptions }) {
    this.agent = new UpstreamAgent({
      // 0: no limit. Without RELAY_TIMEOUT, long generations must not be cut.
      timeoutMs: options.timeoutSeconds > 0 ? options.timeoutSeconds * 1000 : 0,
      proxy: options.proxy ? parseProxy(options.proxy) : undefined,
      tls: options.tls,
    })
  }

  /**
   * The relay's call: the answer is gathered, or streamed into `sink` when it is a 2xx event
   * stream. Cancel it through the returned exchange.
   */
  start(call: UpstreamCall, sink?: StreamSink): UpstreamExchange {
    const exchange = new UpstreamExchange(sink)
    this.dispatch(call, exchange)
    return exchange
  }

  /** A call answered as a Node stream (the pass-through proxy, channel tests). */
  send(call: UpstreamCall): Promise<StreamedResponse> {
    const handler = new StreamedResponseHandler(call.signal)
    this.dispatch(call, handler)
    return handler.response
  }

  async close(): Promise<void> {
    this.agent.close()
  }

  private dispatch(call: UpstreamCall, handler: UpstreamExchange | StreamedResponseHandler): void {
    const { origin, path } = splitUrl(call.url)
    // An unusable URL is reported through the handler's onError, like any connection failure.
    this.agent.dispatch(
      { origin, path, method: call.method, headers: call.headers, body: call.body },
      handler,
    )
  }
}

/** `http://host:port/path?q` → origin and path, without building a URL object per request. */
export function splitUrl(url: string): { origin: string; path: string } {
  const scheme = url.indexOf('://')
  const slash = scheme === -1 ? -1 : url.indexOf('/', scheme + 3)
  if (slash === -1) return { origin: url, path: '/' }
  return { origin: url.slice(0, slash), path: url.slice(slash) }
}
