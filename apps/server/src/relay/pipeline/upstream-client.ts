import { Agent, type Dispatcher, ProxyAgent, request } from 'undici'
import { type StreamSink, UpstreamExchange } from './upstream-exchange.ts'

/**
 * The one HTTP client for upstream providers: undici with keep-alive pools per origin (far cheaper
 * than global fetch, ARCHITECTURE §3a), an optional RELAY_PROXY and RELAY_TIMEOUT.
 */
export interface UpstreamCall {
  url: string
  method: 'POST' | 'GET'
  headers: Record<string, string>
  body?: Buffer | string
  signal?: AbortSignal
}

export class UpstreamClient {
  private readonly dispatcher: Dispatcher

  constructor(options: { proxy?: string; timeoutSeconds: number }) {
    const timeout = options.timeoutSeconds > 0 ? options.timeoutSeconds * 1000 : 0
    const common = {
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
      // Per upstream origin; every open stream holds one, so this bounds concurrent streams per origin.
      connections: 8192,
      // 0 disables undici's own limits: without RELAY_TIMEOUT, long generations must not be cut.
      headersTimeout: timeout,
      bodyTimeout: timeout,
    }
    this.dispatcher = options.proxy ? new ProxyAgent({ uri: options.proxy, ...common }) : new Agent(common)
  }

  /**
   * The relay's call: the answer is gathered, or streamed into `sink` when it is a 2xx event
   * stream. Cancel it through the returned exchange.
   */
  start(call: UpstreamCall, sink?: StreamSink): UpstreamExchange {
    const exchange = new UpstreamExchange(sink)
    const { origin, path } = splitUrl(call.url)
    // An unusable URL is reported through the exchange's onError, like any connection failure.
    this.dispatcher.dispatch(
      { origin, path, method: call.method, headers: call.headers, body: call.body },
      exchange,
    )
    return exchange
  }

  /** A call answered as a Node stream (channel tests, the pass-through proxy). */
  send(call: UpstreamCall): Promise<Dispatcher.ResponseData> {
    return request(call.url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      signal: call.signal,
      dispatcher: this.dispatcher,
    })
  }

  close(): Promise<void> {
    return this.dispatcher.close()
  }
}

/** `http://host:port/path?q` → origin and path, without building a URL object per request. */
export function splitUrl(url: string): { origin: string; path: string } {
  const scheme = url.indexOf('://')
  const slash = scheme === -1 ? -1 : url.indexOf('/', scheme + 3)
  if (slash === -1) return { origin: url, path: '/' }
  return { origin: url.slice(0, slash), path: url.slice(slash) }
}
