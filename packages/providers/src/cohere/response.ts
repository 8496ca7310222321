/**
 * Cohere v2 answers read for billing and turned into OpenAI's shapes.
 * https://docs.cohere.com/reference/chat (response: id, finish_reason, message, usage)
 * https://docs.cohere.com/reference/embed (response: embeddings.float, meta.billed_units)
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { openAiUsageOf } from '../shared/chat-chunks.ts'
import { embeddingListResponse, noEmbeddings } from '../shared/embedding-list.ts'
import { countOf, isRecord, type Json } from '../shared/json.ts'
import { localError, nonStreamReply, readAnswerJson } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { documentText } from './request-body.ts'

/**
 * Usage from Cohere's `usage` (chat) or `meta` (embed): the tokens the model read and wrote
 * (`tokens`), else the billed units, which leave out the tokens of Cohere's own prompt template.
 */
export function cohereUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined
  const tokens = isRecord(raw.tokens) ? raw.tokens : {}
  const billed = isRecord(raw.billed_units) ? raw.billed_units : {}
  const input = countOf(tokens.input_tokens) ?? countOf(billed.input_tokens)
  const output = countOf(tokens.output_tokens) ?? countOf(billed.output_tokens)
  if (input === undefined && output === undefined) return undefined
  const promptTokens = input ?? 0
  const completionTokens = output ?? 0
  return {
    promptTokens,
    completionTokens,
    cachedTokens: 0,
    reasoningTokens: 0,
    totalTokens: promptTokens + completionTokens,
  }
}

/**
 * Cohere's finish_reason as OpenAI's. ERROR_TOXIC (the generation was stopped by Cohere's safety
 * filter) is content_filter.
 */
export function finishReason(reason: unknown): string {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length'
    case 'TOOL_CALL':
      return 'tool_calls'
    case 'ERROR_TOXIC':
      return 'content_filter'
    default:
      return 'stop'
  }
}

function chatMessage(message: Json): Json {
  const parts = Array.isArray(message.content) ? message.content : []
  const text = parts
    .filter((part): part is Json => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('')
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord) : []
  const result: Json = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    refusal: null,
  }
  if (calls.length > 0) {
    result.tool_calls = calls.map((call) => {
      const fn = isRecord(call.function) ? call.function : {}
      return { id: call.id, type: 'function', function: { name: fn.name, arguments: fn.arguments ?? '{}' } }
    })
  }
  return result
}

function parseChat(json: Json, request: RelayRequest): ParsedResponse | UpstreamError {
  if (!isRecord(json.message)) {
    return localError(502, 'invalid_upstream_response', 'upstream returned no message in its answer', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  const usage = cohereUsage(json.usage)
  const message = chatMessage(json.message)
  const completion = {
    id: typeof json.id === 'string' ? json.id : 'chatcmpl',
    object: 'chat.completion',
    created: request.receivedAt ?? 0,
    model: request.mappedModel,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(json.finish_reason) }],
    ...(usage ? { usage: openAiUsageOf(usage) } : {}),
  }
  const generated = [
    message.content,
    ...((message.tool_calls as Json[] | undefined) ?? []).map((call) => (call.function as Json).arguments),
  ]
  return {
    kind: 'response',
    body: Buffer.from(JSON.stringify(completion)),
    usage,
    completionText: usage ? undefined : generated.filter((text) => typeof text === 'string').join(''),
  }
}

function parseEmbed(json: Json, request: RelayRequest): ParsedResponse | UpstreamError {
  const vectors = isRecord(json.embeddings) ? json.embeddings.float : json.embeddings
  if (!Array.isArray(vectors)) return noEmbeddings()
  return embeddingListResponse(vectors, request, cohereUsage(json.meta))
}

/**
 * Cohere's rerank results in the Jina shape the gateway answers with (`results` of index,
 * relevance_score and, when asked, the document). Cohere bills search units, not tokens: no usage
 * is read, and the gateway counts the query and documents itself.
 */
function parseRerank(json: Json, request: RelayRequest): ParsedResponse | UpstreamError {
  if (!Array.isArray(json.results)) {
    return localError(502, 'invalid_upstream_response', 'upstream returned no results in its answer', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  const documents = Array.isArray(request.json?.documents) ? request.json.documents : []
  const withDocuments = request.json?.return_documents === true
  const results = json.results.filter(isRecord).map((result) => ({
    index: result.index,
    relevance_score: result.relevance_score,
    ...(withDocuments && typeof result.index === 'number'
      ? { document: { text: documentText(documents[result.index]) } }
      : {}),
  }))
  const answer = { id: json.id, model: request.mappedModel, results }
  return { kind: 'response', body: Buffer.from(JSON.stringify(answer)), usage: undefined }
}

export function parseCohereResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const read = readAnswerJson(response)
  if (read.kind === 'error') return read
  const json = read.json
  if (request.mode === 'embeddings') return parseEmbed(json, request)
  if (request.mode === 'rerank') return parseRerank(json, request)
  if (request.stream) {
    return nonStreamReply()
  }
  return parseChat(json, request)
}
