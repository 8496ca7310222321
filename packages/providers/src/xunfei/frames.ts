/**
 * Spark's WebSocket messages: the request frame built from an OpenAI chat request (its tools as
 * functions: functions.ts), and the answer frames read (`header.status` 0, 1, then 2 for the last,
 * whose `payload.usage.text` holds the usage; `header.code` other than 0 is an error).
 * https://www.xfyun.cn/doc/spark/Web.html
 */
import type { RelayRequest, UpstreamError } from '../adaptor.ts'
import { countOrZero, isRecord, type Json } from '../shared/json.ts'
import { localError } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { functionCallOf, type SparkFunctionCall, sparkFunctions } from './functions.ts'

const text = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .filter((part) => isRecord(part) && part.type === 'text')
          .map((part) => String((part as Json).text ?? ''))
          .join('')
      : ''

export function requestFrame(request: RelayRequest, appId: string, domain: string): Json {
  const json = request.json ?? {}
  const messages = (Array.isArray(json.messages) ? json.messages : []).filter(isRecord)
  const kept =
    request.systemPrompt === undefined ? messages : messages.filter((message) => message.role !== 'system')
  const turns = kept.map((message) => ({ role: message.role, content: text(message.content) }))
  if (request.systemPrompt !== undefined) turns.unshift({ role: 'system', content: request.systemPrompt })
  const chat: Json = { domain }
  if (typeof json.temperature === 'number') chat.temperature = json.temperature
  const maxTokens = json.max_completion_tokens ?? json.max_tokens
  if (typeof maxTokens === 'number') chat.max_tokens = maxTokens
  if (typeof json.top_k === 'number') chat.top_k = json.top_k
  const user = typeof json.user === 'string' && json.user !== '' ? json.user.slice(0, 32) : undefined
  const functions = sparkFunctions(json)
  return {
    header: { app_id: appId, ...(user ? { uid: user } : {}) },
    parameter: { chat },
    payload: { message: { text: turns }, ...(functions ? { functions } : {}) },
  }
}

export interface SparkFrame {
  readonly content: string
  /** Functions the answer calls (`function_call` of its text items). */
  readonly functionCalls: readonly SparkFunctionCall[]
  /** 2 on the last frame of an answer. */
  readonly status: number
  readonly usage: Usage | undefined
  readonly sid: string | undefined
  readonly error: UpstreamError | undefined
}

function frameUsage(payload: Json): Usage | undefined {
  const usage = isRecord(payload.usage) && isRecord(payload.usage.text) ? payload.usage.text : undefined
  if (!usage) return undefined
  const prompt = countOrZero(usage.prompt_tokens)
  const completion = countOrZero(usage.completion_tokens)
  return {
    promptTokens: prompt,
    completionTokens: completion,
    cachedTokens: 0,
    reasoningTokens: 0,
    totalTokens: countOrZero(usage.total_tokens) || prompt + completion,
  }
}

/** Xunfei's error codes: the key refused, quotas and rates, the content audit, the rest. */
function frameError(code: number, message: string): UpstreamError {
  const described = `${message} (Xunfei code ${code})`
  if (code === 11200 || code === 10313) {
    return {
      ...localError(401, String(code), described, { type: 'authentication_error' }),
      disableChannel: true,
      retryable: true,
    }
  }
  if (code >= 11201 && code <= 11203)
    return localError(429, String(code), described, { retryable: true, type: 'rate_limit_error' })
  if (code === 10013 || code === 10014 || code === 10019)
    return localError(400, 'content_filter', described, { type: 'invalid_request_error' })
  if (code === 10907) return localError(400, String(code), described, { type: 'invalid_request_error' })
  return localError(502, String(code), described, { retryable: true, type: 'upstream_error' })
}

/** One answer frame, or undefined for a line that is not one. */
export function readFrame(line: string): SparkFrame | undefined {
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch {
    return undefined
  }
  if (!isRecord(json) || !isRecord(json.header)) return undefined
  const header = json.header
  const payload = isRecord(json.payload) ? json.payload : {}
  const sid = typeof header.sid === 'string' ? header.sid : undefined
  const code = countOrZero(header.code)
  if (code !== 0) {
    const message = typeof header.message === 'string' ? header.message : 'Xunfei error'
    return {
      content: '',
      functionCalls: [],
      status: 2,
      usage: undefined,
      sid,
      error: frameError(code, message),
    }
  }
  const choices = isRecord(payload.choices) ? payload.choices : {}
  const pieces = Array.isArray(choices.text) ? choices.text.filter(isRecord) : []
  const content = pieces.map((piece) => (typeof piece.content === 'string' ? piece.content : '')).join('')
  const functionCalls = pieces.map(functionCallOf).filter((call) => call !== undefined)
  return {
    content,
    functionCalls,
    status: countOrZero(header.status),
    usage: frameUsage(payload),
    sid,
    error: undefined,
  }
}

/** The last frame of an answer (or an error, after which Xunfei sends nothing more). */
export function isLastFrame(message: string): boolean {
  const frame = readFrame(message)
  return frame !== undefined && frame.status === 2
}
