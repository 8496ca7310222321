/**
 * DashScope answers read for billing and turned into OpenAI's: chat (result_format message),
 * embeddings, image tasks, and DashScope's error bodies (`{code, message, request_id}`).
 * https://help.aliyun.com/zh/model-studio/developer-reference/error-code
 */

import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { openAiTokenCounts } from '../shared/chat-completion.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { localError, mapUpstreamError } from '../shared/upstream-error.ts'
import { normaliseUsage, type Usage } from '../shared/usage.ts'

/** DashScope codes that say the channel's key or account is unusable. */
const ACCOUNT_CODES = new Set(['InvalidApiKey', 'Arrearage', 'AccessDenied.Unpurchased'])
/** The content inspection refused the request or the answer: any channel would. */
export const INSPECTION_FAILED = 'DataInspectionFailed'

/** A DashScope error body (or any other) as an UpstreamError, with DashScope's code kept. */
export function aliError(
  status: number,
  body: Buffer | string,
  headers?: UpstreamResponse['headers'],
): UpstreamError {
  const json = parseJson(body)
  if (!isRecord(json) || typeof json.code !== 'string' || json.code === '') {
    return mapUpstreamError(status, body, headers)
  }
  const code = json.code === INSPECTION_FAILED ? 'content_filter' : json.code
  const type = ACCOUNT_CODES.has(json.code)
    ? json.code === 'Arrearage'
      ? 'insufficient_quota'
      : 'authentication_error'
    : status >= 500 || status < 400
      ? 'upstream_error'
      : 'invalid_request_error'
  const message = typeof json.message === 'string' && json.message !== '' ? json.message : json.code
  const openAi = JSON.stringify({ error: { message, type, param: null, code } })
  return mapUpstreamError(status, openAi, { ...headers, 'x-request-id': stringOr(json.request_id) })
}

const stringOr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

function parseJson(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'))
  } catch {
    return undefined
  }
}

/** The JSON of a 2xx DashScope answer, or the error it is. */
export function aliJson(response: UpstreamResponse): { kind: 'json'; json: Json } | UpstreamError {
  const { status, headers, body } = response
  if (status < 200 || status >= 300) return aliError(status, body, headers)
  const json = parseJson(body)
  if (!isRecord(json)) {
    return localError(502, 'unmarshal_response_body_failed', 'upstream returned an unexpected body', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  if (typeof json.code === 'string' && json.code !== '') return aliError(status, body, headers)
  return { kind: 'json', json }
}

/** DashScope's usage (`input_tokens`, `output_tokens`). */
export const aliUsage = (raw: unknown): Usage | undefined => normaliseUsage(raw)

/** DashScope's finish_reason ("null" while generating) as OpenAI's, or null. */
export function finishReason(reason: unknown): string | null {
  if (typeof reason !== 'string' || reason === 'null' || reason === '') return null
  return reason
}

/** A message's content: a string, or the text of multimodal parts (`[{text}]`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('')
}

/** The answer the content inspection stopped: OpenAI's filtered answer, with nothing generated. */
function filteredAnswer(json: Json, request: RelayRequest): ParsedResponse {
  const completion = {
    id: stringOr(json.request_id) ?? 'chatcmpl-dashscope',
    object: 'chat.completion',
    created: request.receivedAt ?? 0,
    model: request.mappedModel,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: '', refusal: null },
        logprobs: null,
        finish_reason: 'content_filter',
      },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  }
  // Nothing reported: the prompt is counted locally (the upstream read it), the answer is empty.
  const usage: Usage = {
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    totalTokens: 0,
  }
  return { kind: 'response', body: Buffer.from(JSON.stringify(completion)), usage, completionText: '' }
}

/** DashScope says "Output data may contain inappropriate content." when it stops the answer itself. */
const isOutputInspection = (json: Json): boolean =>
  json.code === INSPECTION_FAILED && typeof json.message === 'string' && /^output/i.test(json.message)

export function parseChat(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  const failed = parseJson(response.body)
  if (response.status === 400 && isRecord(failed) && isOutputInspection(failed))
    return filteredAnswer(failed, request)
  const parsed = aliJson(response)
  if (parsed.kind === 'error') return parsed
  const { json } = parsed
  const output = isRecord(json.output) ? json.output : {}
  const choice = Array.isArray(output.choices) && isRecord(output.choices[0]) ? output.choices[0] : {}
  const upstream = isRecord(choice.message) ? choice.message : {}
  const text = contentText(upstream.content)
  const toolCalls = Array.isArray(upstream.tool_calls) ? upstream.tool_calls : []
  const message: Json = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text }
  if (typeof upstream.reasoning_content === 'string' && upstream.reasoning_content !== '') {
    message.reasoning_content = upstream.reasoning_content
  }
  if (toolCalls.length > 0) message.tool_calls = toolCalls.map(toolCall)
  message.refusal = null
  const usage = aliUsage(json.usage)
  const completion = {
    id: stringOr(json.request_id) ?? 'chatcmpl-dashscope',
    object: 'chat.completion',
    created: request.receivedAt ?? 0,
    model: request.mappedModel,
    choices: [
      { index: 0, message, logprobs: null, finish_reason: finishReason(choice.finish_reason) ?? 'stop' },
    ],
    ...(usage ? { usage: openAiTokenCounts(usage) } : {}),
  }
  return {
    kind: 'response',
    body: Buffer.from(JSON.stringify(completion)),
    usage,
    completionText: usage ? undefined : text,
  }
}

/** A DashScope tool call as OpenAI's (its `index` dropped: a whole message has none). */
export function toolCall(raw: unknown): Json {
  const call = isRecord(raw) ? raw : {}
  const fn = isRecord(call.function) ? call.function : {}
  return { id: call.id, type: 'function', function: { name: fn.name, arguments: fn.arguments ?? '' } }
}

export function parseEmbeddings(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const parsed = aliJson(response)
  if (parsed.kind === 'error') return parsed
  const { json } = parsed
  const output = isRecord(json.output) ? json.output : {}
  const embeddings = Array.isArray(output.embeddings) ? output.embeddings.filter(isRecord) : []
  const usage = aliUsage(json.usage)
  const tokens = usage?.totalTokens ?? 0
  const answer = {
    object: 'list',
    data: embeddings.map((item, index) => ({
      object: 'embedding',
      index: typeof item.text_index === 'number' ? item.text_index : index,
      embedding: item.embedding,
    })),
    model: request.mappedModel,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  }
  return { kind: 'response', body: Buffer.from(JSON.stringify(answer)), usage }
}

/** A SUCCEEDED image task as OpenAI's image answer (URLs; DashScope keeps them 24 hours). */
export function parseImageTask(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const parsed = aliJson(response)
  if (parsed.kind === 'error') return parsed
  const { json } = parsed
  const output = isRecord(json.output) ? json.output : {}
  const results = Array.isArray(output.results) ? output.results.filter(isRecord) : []
  const data = results
    .filter((result) => typeof result.url === 'string')
    .map((result) => ({ url: result.url }))
  if (data.length === 0) {
    return localError(502, 'invalid_upstream_response', 'the upstream task finished without images', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  const answer = { created: request.receivedAt ?? 0, data }
  return {
    kind: 'response',
    body: Buffer.from(JSON.stringify(answer)),
    usage: undefined,
    imageCount: data.length,
  }
}
