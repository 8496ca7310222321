/**
 * Ollama's native answers read for billing and turned into OpenAI's shapes.
 * https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 * (message, done_reason, prompt_eval_count, eval_count), #generate-embeddings (embeddings).
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { openAiUsageOf } from '../shared/chat-chunks.ts'
import { embeddingListResponse, noEmbeddings } from '../shared/embedding-list.ts'
import { countOf, isRecord, type Json } from '../shared/json.ts'
import { localError, mapUpstreamError, nonStreamReply, readAnswerJson } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'

/**
 * prompt_eval_count and eval_count. Ollama leaves out prompt_eval_count when the whole prompt came
 * from its cache: the prompt is then marked missing and counted locally.
 */
export function ollamaUsage(json: Json): Usage | undefined {
  const prompt = countOf(json.prompt_eval_count)
  const completion = countOf(json.eval_count)
  if (prompt === undefined && completion === undefined) return undefined
  const usage: { -readonly [K in keyof Usage]: Usage[K] } = {
    promptTokens: prompt ?? 0,
    completionTokens: completion ?? 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    totalTokens: (prompt ?? 0) + (completion ?? 0),
  }
  if (prompt === undefined) usage.promptMissing = true
  if (completion === undefined) usage.completionMissing = true
  return usage
}

export function finishReason(doneReason: unknown, calledTools: boolean): string {
  if (calledTools) return 'tool_calls'
  return doneReason === 'length' ? 'length' : 'stop'
}

/** Ollama's tool calls (arguments as an object) as OpenAI's, ids made up where Ollama gives none. */
export function openAiToolCalls(calls: unknown, firstIndex = 0): Json[] {
  if (!Array.isArray(calls)) return []
  return calls.filter(isRecord).map((call, offset) => {
    const fn = isRecord(call.function) ? call.function : {}
    const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {})
    const id = typeof call.id === 'string' ? call.id : `call_${firstIndex + offset}`
    return { id, type: 'function', function: { name: fn.name, arguments: args } }
  })
}

/** The JSON of a successful Ollama answer, or the error it is (Ollama may answer 200 with `{"error": "..."}`). */
function readOllamaJson(response: UpstreamResponse): { kind: 'json'; json: Json } | UpstreamError {
  const read = readAnswerJson(response)
  if (read.kind === 'json' && typeof read.json.error === 'string') {
    return mapUpstreamError(response.status, response.body, response.headers)
  }
  return read
}

function parseChat(json: Json, request: RelayRequest): ParsedResponse | UpstreamError {
  if (!isRecord(json.message)) {
    return localError(502, 'invalid_upstream_response', 'upstream returned no message in its answer', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  const calls = openAiToolCalls(json.message.tool_calls)
  const text = typeof json.message.content === 'string' ? json.message.content : ''
  const message: Json = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    refusal: null,
  }
  if (typeof json.message.thinking === 'string' && json.message.thinking !== '')
    message.reasoning_content = json.message.thinking
  if (calls.length > 0) message.tool_calls = calls
  const usage = ollamaUsage(json)
  const completion = {
    id: 'chatcmpl-ollama',
    object: 'chat.completion',
    created: request.receivedAt ?? 0,
    model: typeof json.model === 'string' ? json.model : request.mappedModel,
    choices: [
      { index: 0, message, logprobs: null, finish_reason: finishReason(json.done_reason, calls.length > 0) },
    ],
    ...(usage ? { usage: openAiUsageOf(usage) } : {}),
  }
  const generated = text + calls.map((call) => (call.function as Json).arguments).join('')
  return { kind: 'response', body: Buffer.from(JSON.stringify(completion)), usage, completionText: generated }
}

function parseEmbed(json: Json, request: RelayRequest): ParsedResponse | UpstreamError {
  if (!Array.isArray(json.embeddings)) return noEmbeddings()
  const prompt = countOf(json.prompt_eval_count)
  const usage = prompt === undefined ? undefined : ollamaUsage({ prompt_eval_count: prompt, eval_count: 0 })
  const model = typeof json.model === 'string' ? json.model : request.mappedModel
  return embeddingListResponse(json.embeddings, request, usage, model)
}

export function parseOllamaResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const read = readOllamaJson(response)
  if (read.kind === 'error') return read
  const json = read.json
  if (request.mode === 'embeddings') return parseEmbed(json, request)
  if (request.stream) {
    return nonStreamReply()
  }
  return parseChat(json, request)
}
