import { Agent, type Dispatcher, ProxyAgent, request } from 'undici'

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
