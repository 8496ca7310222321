/**
 * Gemini answers read for billing and turned into OpenAI chat completions and embeddings, and
 * Gemini's errors classified. Pure functions of the bodies (shared with Gemini on Vertex AI).
 * https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 * https://ai.google.dev/api/generate-content#UsageMetadata
 * https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { embeddingListResponse, noEmbeddings } from '../shared/embedding-list.ts'
import { countOrZero, isRecord, type Json } from '../shared/json.ts'
import { mapUpstreamError, readJsonObject } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'

/**
 * Usage of a Gemini answer. The prompt is `promptTokenCount` (which includes the cached part,
 * `cachedContentTokenCount`) plus the tool-use prompt; the completion is the candidates plus the
 * thinking (`thoughtsTokenCount`, reported apart from the candidates and billed as output).
 */
export function geminiUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined
  const prompt = countOrZero(raw.promptTokenCount) + countOrZero(raw.toolUsePromptTokenCount)
  const thoughts = countOrZero(raw.thoughtsTokenCount)
  const completion = countOrZero(raw.candidatesTokenCount) + thoughts
  if (prompt + completion === 0) return undefined
  return {
    promptTokens: prompt,
    completionTokens: completion,
    cachedTokens: Math.min(countOrZero(raw.cachedContentTokenCount), prompt),
    reasoningTokens: thoughts,
    totalTokens: Math.max(countOrZero(raw.totalTokenCount), prompt + completion),
  }
}

/** OpenAI's usage object for a Gemini usage. */
export function openAiUsage(usage: Usage): Json {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  }
}

const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
])

/** Gemini's finishReason as OpenAI's finish_reason; STOP after a function call is tool_calls. */
export function finishReason(reason: unknown, calledTools: boolean): string | null {
  if (reason == null || reason === 'FINISH_REASON_UNSPECIFIED') return null
  if (reason === 'MAX_TOKENS') return 'length'
  if (typeof reason === 'string' && FILTERED.has(reason)) return 'content_filter'
  return calledTools ? 'tool_calls' : 'stop'
}

export interface GeminiMessage {
  text: string
  reasoning: string
  toolCalls: { name: string; arguments: string }[]
}

/** The text, thought summaries and function calls of a candidate's parts. */
export function readParts(content: unknown): GeminiMessage {
  const message: GeminiMessage = { text: '', reasoning: '', toolCalls: [] }
  const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts : []
  for (const part of parts) {
    if (!isRecord(part)) continue
    if (typeof part.text === 'string') {
      if (part.thought === true) message.reasoning += part.text
      else message.text += part.text
    } else if (isRecord(part.functionCall)) {
      message.toolCalls.push({
        name: String(part.functionCall.name ?? ''),
        arguments: JSON.stringify(part.functionCall.args ?? {}),
      })
    }
  }
  return message
}

/** The id of the `index`th tool call of an answer: Gemini gives none, OpenAI clients need one. */
export const toolCallId = (responseId: string, index: number): string => `call_${responseId}_${index}`

/** ErrorInfo reasons that say the channel's key or its project cannot be used. */
const KEY_REASONS = new Set([
  'API_KEY_INVALID',
  'API_KEY_EXPIRED',
  'API_KEY_SERVICE_BLOCKED',
  'SERVICE_DISABLED',
  'CONSUMER_SUSPENDED',
])

/**
 * A Google error body: `{"error":{"code","message","status","details"}}`. A bad key is answered
 * 400 with reason API_KEY_INVALID: it is the channel's fault, so it counts as a 401 here (the
 * channel is disabled and the request tried elsewhere). A 403 disables the channel only when its
 * reason or Google's own wording is about the key: PERMISSION_DENIED also answers a file or a
 * tuned model the key may not read, which the client chose.
 */
export function mapGeminiError(
  status: number,
  body: Buffer | string,
  headers?: UpstreamResponse['headers'],
): UpstreamError {
  const error = googleError(body)
  // An error inside a 2xx stream carries its own HTTP code: that one decides.
  const own = error && typeof error.code === 'number' && error.code >= 400 && error.code < 600
  if (own && status >= 200 && status < 300) return mapGeminiError(error.code as number, body, headers)
  const mapped = mapUpstreamError(status, body, headers)
  if (!error) return mapped
  const googleStatus = typeof error.status === 'string' ? error.status : undefined
  const message = typeof error.message === 'string' ? error.message : ''
  const keyRefused =
    status === 401 ||
    googleStatus === 'UNAUTHENTICATED' ||
    reasons(error).some((reason) => KEY_REASONS.has(reason)) ||
    (status === 403 && /^(your api key|method doesn't allow unregistered callers)/i.test(message))
  return {
    ...mapped,
    status: keyRefused && mapped.status !== 403 ? 401 : mapped.status,
    type: googleStatus ?? mapped.type,
    code: googleStatus ?? mapped.code,
    disableChannel: keyRefused,
    retryable: keyRefused || [403, 408, 429].includes(mapped.status) || mapped.status >= 500,
  }
}

function googleError(body: Buffer | string): Json | undefined {
  try {
    const json = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'))
    // A stream sends it alone; some proxies wrap it in a list, as Google's own REST gateway once did.
    const first = Array.isArray(json) ? json[0] : json
    return isRecord(first) && isRecord(first.error) ? first.error : undefined
  } catch {
    return undefined
  }
}

function reasons(error: Json): string[] {
  const details = Array.isArray(error.details) ? error.details : []
  return details.filter(isRecord).map((detail) => String(detail.reason ?? ''))
}

/** The JSON of a successful Gemini answer, or the error it is. */
export function parseGeminiJson(response: UpstreamResponse): { kind: 'json'; json: Json } | UpstreamError {
  const { status, headers, body } = response
  if (status < 200 || status >= 300) return mapGeminiError(status, body, headers)
  const read = readJsonObject(body)
  if (read.kind === 'error') return read
  const json = read.json
  if (isRecord(json.error)) return mapGeminiError(status, body, headers)
  return { kind: 'json', json }
}

/** One candidate of a GenerateContentResponse as an OpenAI choice. */
function choiceOf(candidate: Json, index: number, responseId: string): Json {
  const read = readParts(candidate.content)
  const calledTools = read.toolCalls.length > 0
  const message: Json = { role: 'assistant', content: read.text === '' && calledTools ? null : read.text }
  if (read.reasoning) message.reasoning_content = read.reasoning
  if (calledTools) {
    message.tool_calls = read.toolCalls.map((call, at) => ({
      id: toolCallId(responseId, at),
      type: 'function',
      function: call,
    }))
  }
  message.refusal = null
  return {
    index,
    message,
    logprobs: null,
    finish_reason: finishReason(candidate.finishReason, calledTools) ?? 'stop',
  }
}

/** The id an answer goes by: Gemini's responseId, or a fixed one (adaptors are pure). */
export const responseIdOf = (json: Json): string =>
  typeof json.responseId === 'string' && json.responseId !== '' ? json.responseId : 'gemini'

/** A GenerateContentResponse as an OpenAI chat completion (a blocked prompt: content_filter). */
export function geminiToChatCompletion(json: Json, request: RelayRequest, usage: Usage | undefined): Json {
  const responseId = responseIdOf(json)
  const candidates = Array.isArray(json.candidates) ? json.candidates.filter(isRecord) : []
  const choices = candidates.map((candidate, at) =>
    choiceOf(candidate, typeof candidate.index === 'number' ? candidate.index : at, responseId),
  )
  if (choices.length === 0) {
    const blocked = isRecord(json.promptFeedback) && json.promptFeedback.blockReason != null
    choices.push({
      index: 0,
      message: { role: 'assistant', content: '', refusal: null },
      logprobs: null,
      finish_reason: blocked ? 'content_filter' : 'stop',
    })
  }
  return {
    id: `chatcmpl-${responseId}`,
    object: 'chat.completion',
    created: request.receivedAt ?? 0,
    model: typeof json.modelVersion === 'string' ? json.modelVersion : request.mappedModel,
    choices,
    ...(usage ? { usage: openAiUsage(usage) } : {}),
  }
}

function generatedText(completion: Json): string {
  const texts: string[] = []
  for (const choice of completion.choices as Json[]) {
    const message = choice.message as Json
    if (typeof message.content === 'string') texts.push(message.content)
    if (typeof message.reasoning_content === 'string') texts.push(message.reasoning_content)
    for (const call of (message.tool_calls ?? []) as { function: { arguments: string } }[]) {
      texts.push(call.function.arguments)
    }
  }
  return texts.join('')
}

/** A non-stream Gemini answer as an OpenAI chat completion. */
export function parseGeminiChatResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const parsed = parseGeminiJson(response)
  if (parsed.kind === 'error') return parsed
  const usage = geminiUsage(parsed.json.usageMetadata)
  const completion = geminiToChatCompletion(parsed.json, request, usage)
  return {
    kind: 'response',
    body: Buffer.from(JSON.stringify(completion)),
    usage,
    completionText: usage ? undefined : generatedText(completion),
  }
}

/**
 * A batchEmbedContents answer as an OpenAI embeddings list. Gemini reports no token counts for
 * embeddings: the usage is left to the gateway's local count of the input.
 */
export function parseGeminiEmbeddingResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const parsed = parseGeminiJson(response)
  if (parsed.kind === 'error') return parsed
  const embeddings = parsed.json.embeddings
  if (!Array.isArray(embeddings)) return noEmbeddings()
  const vectors = embeddings.map((embedding) => (isRecord(embedding) ? embedding.values : undefined))
  return embeddingListResponse(vectors, request, undefined)
}
