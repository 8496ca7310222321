import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { type ClientApi, toAnthropicErrorBody, toGoogleErrorBody } from '@one-api/providers'
import { REQUEST_ID_HEADER } from '../../http/request-id.ts'
import type { RelayError } from '../auth/relay-error.ts'

/** The relay's CORS headers, on every /v1 answer: browsers call the relay with their own origin. */
export function corsHeaders(origin: string | undefined): OutgoingHttpHeaders {
  return { 'access-control-allow-origin': origin ?? '*', vary: 'origin' }
}

/** Answers of the relay front, written straight to Node's response: request id and CORS headers. */
export function relayHeaders(response: ServerResponse, requestId: string): OutgoingHttpHeaders {
  const headers = corsHeaders(response.req.headers.origin)
  headers[REQUEST_ID_HEADER] = requestId
  return headers
}

export function sendAnswer(
  response: ServerResponse,
  requestId: string,
  status: number,
  contentType: string,
  body: string | Buffer,
  extraHeaders?: OutgoingHttpHeaders,
): void {
  if (response.headersSent || response.destroyed) return
  const headers = relayHeaders(response, requestId)
  if (extraHeaders) Object.assign(headers, extraHeaders)
  headers['content-type'] = contentType
  headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length
  response.writeHead(status, headers)
  response.end(body)
}

/**
 * A RelayError in the client API's shape (OpenAI's unless Anthropic's), with the request id in its
 * message as one-api does.
 */
export function sendRelayErrorAnswer(
  response: ServerResponse,
  requestId: string,
  error: RelayError,
  clientApi: ClientApi = 'openai',
): void {
  const suffix = ` (request id: ${requestId})`
  const body =
    clientApi === 'gemini'
      ? toGoogleErrorBody(error.status, error, suffix)
      : clientApi === 'anthropic'
        ? toAnthropicErrorBody(error.status, error, suffix)
        : JSON.stringify(error.toBody(requestId))
  sendAnswer(response, requestId, error.status, 'application/json', body, error.headers())
}
