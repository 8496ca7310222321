/**
 * What differs between the client APIs the relay serves (OpenAI's, Anthropic's Messages API and
 * OpenAI's Responses API) before any channel is chosen: where the key is, how the body is read,
 * how errors are written. A Messages or Responses request is read as its OpenAI chat translation,
 * so it is billed, limited, routed and logged exactly as a chat completion; the client's own body
 * is kept for the channels that serve its API natively.
 */
import type { IncomingHttpHeaders } from 'node:http'
import {
  type ClientApi,
  generateContentToChatRequest,
  InvalidGenerateContentRequest,
  InvalidMessagesRequest,
  InvalidResponsesRequest,
  messagesToChatRequest,
  responsesToChatRequest,
  toAnthropicErrorBody,
  toGoogleErrorBody,
} from '@one-api/providers'
import { RelayError } from '../auth/relay-error.ts'
import { type RelayBodyFacts, readRelayBody } from './request-body.ts'

/**
 * The Authorization header the token is read from: Anthropic's clients send the key as
 * `x-api-key` (a Bearer header is taken too).
 */
export function clientAuthorization(
  headers: IncomingHttpHeaders,
  clientApi: ClientApi,
  url = '',
): string | undefined {
  if (headers.authorization || clientApi === 'openai') return headers.authorization
  const key = clientApi === 'gemini' ? geminiKey(headers, url) : headers['x-api-key']
  return typeof key === 'string' && key !== '' ? `Bearer ${key}` : undefined
}

/** Google's clients send the key as `x-goog-api-key`, or as the `key` query parameter. */
function geminiKey(headers: IncomingHttpHeaders, url: string): string | undefined {
  const header = headers['x-goog-api-key']
  if (typeof header === 'string' && header !== '') return header
  const query = url.indexOf('?')
  return query === -1 ? undefined : (new URLSearchParams(url.slice(query + 1)).get('key') ?? undefined)
}

export interface ClientBody {
  facts: RelayBodyFacts
  /** The body the OpenAI-format adaptors read: the client's own, or its chat translation. */
  body: Buffer
  /** The client's own request, when its API is not OpenAI's. */
  native?: { json: Record<string, unknown>; body: Buffer; jsonArrayStream?: boolean }
}

/** Reads a Messages request: checked as Anthropic checks it, then read as its chat translation. */
export function readMessagesBody(body: Buffer, contentType: string): ClientBody {
  return readTranslated(body, contentType, messagesToChatRequest)
}

/**
 * The body of a request of another API than OpenAI's chat and its kin, read as its chat
 * translation; undefined for OpenAI's own endpoints.
 */
export function readClientBody(
  clientApi: ClientApi,
  body: Buffer,
  contentType: string,
  gemini?: GeminiCall,
): ClientBody | undefined {
  if (clientApi === 'anthropic') return readMessagesBody(body, contentType)
  if (clientApi === 'gemini' && gemini) return readGeminiBody(body, contentType, gemini)
  if (clientApi === 'responses') return readTranslated(body, contentType, responsesToChatRequest)
  return undefined
}

function readTranslated(
  body: Buffer,
  contentType: string,
  toChat: (json: Record<string, unknown>) => Record<string, unknown>,
): ClientBody {
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    throw new RelayError(
      400,
      'The request body is not valid JSON',
      'invalid_request',
      'invalid_request_error',
    )
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new RelayError(
      400,
      'The request body must be a JSON object',
      'invalid_request',
      'invalid_request_error',
    )
  }
  let chat: Record<string, unknown>
  try {
    chat = toChat(json as Record<string, unknown>)
  } catch (error) {
    if (!(error instanceof InvalidMessagesRequest || error instanceof InvalidResponsesRequest)) throw error
    throw new RelayError(400, error.message, 'invalid_request', 'invalid_request_error', error.param)
  }
  const translated = Buffer.from(JSON.stringify(chat))
  const facts = readRelayBody('chat', translated, contentType)
  return { facts, body: translated, native: { json: json as Record<string, unknown>, body } }
}

/** What a Gemini client's path says: the model, and for streamGenerateContent how it is framed. */
export interface GeminiCall {
  model: string
  stream: boolean
  /** `alt=sse`: events; without it Google answers a stream as one JSON array. */
  sse: boolean
}

const badJson = () =>
  new RelayError(400, 'The request body must be a JSON object', 'invalid_request', 'invalid_request_error')

/** Reads a GenerateContentRequest: checked as Google checks it, then read as its chat translation. */
export function readGeminiBody(body: Buffer, contentType: string, call: GeminiCall): ClientBody {
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    throw badJson()
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw badJson()
  let chat: Record<string, unknown>
  try {
    chat = generateContentToChatRequest(json as Record<string, unknown>, call.model, call.stream)
  } catch (error) {
    if (!(error instanceof InvalidGenerateContentRequest)) throw error
    throw new RelayError(400, error.message, 'invalid_request', 'invalid_request_error')
  }
  const translated = Buffer.from(JSON.stringify(chat))
  const facts = readRelayBody('chat', translated, contentType || 'application/json')
  const native = { json: json as Record<string, unknown>, body, jsonArrayStream: call.stream && !call.sse }
  return { facts, body: translated, native }
}

/** The body of an error answer in the client's API; the request id ends its message, as one-api's. */
export function errorBodyFor(
  clientApi: ClientApi,
  status: number,
  fields: { message: string; type: string; param: string | null; code: string | number | null },
  requestId: string,
): string {
  const suffix = ` (request id: ${requestId})`
  if (clientApi === 'anthropic') return toAnthropicErrorBody(status, fields, suffix)
  if (clientApi === 'gemini') return toGoogleErrorBody(status, fields, suffix)
  return JSON.stringify({
    error: { message: fields.message + suffix, type: fields.type, param: fields.param, code: fields.code },
  })
}

/** What the consume log says of a request made through another API than OpenAI's. */
export function clientApiNote(clientApi: ClientApi): string | undefined {
  if (clientApi === 'anthropic') return 'input API: Anthropic Messages (/v1/messages)'
  if (clientApi === 'gemini') return 'input API: Gemini generateContent (/v1beta/models)'
  if (clientApi === 'responses') return 'input API: OpenAI Responses (/v1/responses)'
  return undefined
}
