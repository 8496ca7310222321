/**
 * OpenAI chat answers and errors in the shapes of Gemini's API, for clients of
 * `/v1beta/models/{model}:generateContent` served by channels of other types, and the stream
 * framing Gemini clients read: `alt=sse` events, or one JSON array without it.
 * https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 * https://cloud.google.com/apis/design/errors#http_mapping
 */

import { isRecord, type Json, parseJsonObject } from '../shared/json.ts'
import type { ErrorFields } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'

/** OpenAI's finish_reason as Gemini's finishReason. */
export function geminiFinishReason(finish: unknown): string {
  if (finish === 'length') return 'MAX_TOKENS'
  if (finish === 'content_filter') return 'SAFETY'
  return 'STOP'
}

/** Gemini's usageMetadata for a usage: thinking is counted apart from the candidates. */
export function usageMetadata(usage: Usage | undefined): Json | undefined {
  if (!usage) return undefined
  const metadata: Json = {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: Math.max(0, usage.completionTokens - usage.reasoningTokens),
    totalTokenCount: usage.totalTokens,
  }
  if (usage.cachedTokens > 0) metadata.cachedContentTokenCount = usage.cachedTokens
  if (usage.reasoningTokens > 0) metadata.thoughtsTokenCount = usage.reasoningTokens
  return metadata
}

const parseArguments = (value: unknown): Json => (typeof value === 'string' && parseJsonObject(value)) || {}

/** The parts of an OpenAI chat message: thought summary, text, function calls. */
export function messageParts(message: Json): Json[] {
  const parts: Json[] = []
  const reasoning = message.reasoning_content ?? message.reasoning
  if (typeof reasoning === 'string' && reasoning !== '') parts.push({ text: reasoning, thought: true })
  if (typeof message.content === 'string' && message.content !== '') parts.push({ text: message.content })
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    if (!isRecord(call) || !isRecord(call.function)) continue
    parts.push({ functionCall: { name: call.function.name, args: parseArguments(call.function.arguments) } })
  }
  return parts
}

/** An OpenAI chat completion as a GenerateContentResponse. */
export function chatToGenerateContent(completion: Json, usage: Usage | undefined, model: string): Json {
  const choices = Array.isArray(completion.choices) ? completion.choices.filter(isRecord) : []
  const candidates = choices.map((choice, index) => ({
    content: { role: 'model', parts: messageParts(isRecord(choice.message) ? choice.message : {}) },
    finishReason: geminiFinishReason(choice.finish_reason),
    index: typeof choice.index === 'number' ? choice.index : index,
  }))
  const metadata = usageMetadata(usage)
  return {
    candidates,
    ...(metadata ? { usageMetadata: metadata } : {}),
    modelVersion: model,
    responseId: typeof completion.id === 'string' ? completion.id : 'gemini',
  }
}

/** google.rpc.Code names for HTTP statuses, as Google's APIs answer them. */
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
}

export const googleStatusName = (status: number): string =>
  STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : status >= 400 ? 'FAILED_PRECONDITION' : 'UNKNOWN')

/** The body Gemini clients read: `{"error":{"code","message","status"}}`. */
export function toGoogleErrorBody(
  status: number,
  error: Pick<ErrorFields, 'message' | 'type'>,
  messageSuffix = '',
): string {
  // A Gemini upstream's own status name (kept as the error type) is passed on as it came.
  const name = /^[A-Z_]+$/.test(error.type) ? error.type : googleStatusName(status)
  return JSON.stringify({ error: { code: status, message: error.message + messageSuffix, status: name } })
}

/**
 * How a Gemini client's stream is framed: `alt=sse` events (`data: {...}` and a blank line), or,
 * without `alt=sse`, one JSON array whose elements arrive one by one.
 */
export class GeminiStreamFraming {
  private first = true

  constructor(readonly sse: boolean) {}

  get contentType(): string {
    return this.sse ? 'text/event-stream' : 'application/json'
  }

  /** One GenerateContentResponse (its JSON text). */
  event(json: string): string {
    if (this.sse) return `data: ${json}\r\n\r\n`
    const opening = this.first ? '[' : ',\r\n'
    this.first = false
    return opening + json
  }

  /** The end of a complete stream. */
  end(): string {
    if (this.sse) return ''
    return this.first ? '[]' : ']'
  }
}
