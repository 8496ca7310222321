/** One call to an upstream provider, as an adaptor builds it. */
export interface UpstreamCall {
  url: string
  method: string
  headers: Record<string, string>
  body?: Buffer | string
  signal?: AbortSignal
  /** Set for a WebSocket upstream (websocket-exchange.ts): which message is the answer's last. */
  webSocket?: { isLast: (message: string) => boolean }
}
