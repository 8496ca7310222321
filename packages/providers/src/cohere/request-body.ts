/**
 * OpenAI chat and embeddings requests as Cohere v2 requests.
 * https://docs.cohere.com/reference/chat (POST /v2/chat)
 * https://docs.cohere.com/reference/embed (POST /v2/embed)
 */
import type { RelayRequest } from '../adaptor.ts'
import { withSystemPrompt } from '../openai-compatible/request-body.ts'
import { isRecord, type Json } from '../shared/json.ts'

/** Text and image parts as Cohere takes them (the same shapes as OpenAI's, other kinds left out). */
function content(value: unknown): unknown {
  if (!Array.isArray(value)) return value ?? ''
  const parts = value.filter(isRecord).flatMap((part): Json[] => {
    if (part.type === 'text' && typeof part.text === 'string') return [{ type: 'text', text: part.text }]
    if (part.type === 'image_url' && isRecord(part.image_url))
      return [{ type: 'image_url', image_url: { url: part.image_url.url } }]
    return []
  })
  return parts.every((part) => part.type === 'text') ? parts.map((part) => part.text).join('') : parts
}

/** Text of a system or tool message (Cohere takes a string there). */
const textOf = (value: unknown): string => {
  const converted = content(value)
  return typeof converted === 'string' ? converted : JSON.stringify(converted)
}

function message(turn: Json): Json {
  const role = turn.role === 'developer' ? 'system' : String(turn.role)
  if (role === 'tool') return { role, tool_call_id: turn.tool_call_id, content: textOf(turn.content) }
  if (role === 'system') return { role, content: textOf(turn.content) }
  if (role === 'assistant') {
    const calls = Array.isArray(turn.tool_calls) ? turn.tool_calls.filter(isRecord) : []
    const result: Json = { role }
    const text = textOf(turn.content ?? '')
    if (text !== '') result.content = text
    if (calls.length > 0)
      result.tool_calls = calls.map((call) => ({ id: call.id, type: 'function', function: call.function }))
    return result
  }
  return { role: 'user', content: content(turn.content) }
}

/** OpenAI's tool_choice as Cohere's (REQUIRED or NONE; a named function is required of it alone). */
function toolChoice(choice: unknown): string | undefined {
  if (choice === 'required' || isRecord(choice)) return 'REQUIRED'
  if (choice === 'none') return 'NONE'
  return undefined
}

function responseFormat(format: unknown): Json | undefined {
  if (!isRecord(format)) return undefined
  if (format.type === 'json_object') return { type: 'json_object' }
  if (format.type === 'json_schema' && isRecord(format.json_schema))
    return { type: 'json_object', json_schema: format.json_schema.schema }
  return undefined
}

/** Fields copied under the same name, and OpenAI's names of the others. */
const SAME = ['max_tokens', 'temperature', 'seed', 'frequency_penalty', 'presence_penalty'] as const

export function cohereChatBody(request: RelayRequest): Json {
  const json = request.json ?? {}
  const turns = request.systemPrompt ? withSystemPrompt(json.messages, request.systemPrompt) : json.messages
  const body: Json = {
    model: request.mappedModel,
    messages: (Array.isArray(turns) ? turns : []).filter(isRecord).map(message),
  }
  if (request.stream) body.stream = true
  for (const field of SAME) if (json[field] !== undefined && json[field] !== null) body[field] = json[field]
  if (json.max_completion_tokens != null && body.max_tokens === undefined)
    body.max_tokens = json.max_completion_tokens
  if (typeof json.top_p === 'number') body.p = json.top_p
  if (json.stop != null) body.stop_sequences = Array.isArray(json.stop) ? json.stop : [json.stop]
  if (Array.isArray(json.tools) && json.tools.length > 0) {
    body.tools = json.tools.filter(isRecord).map((tool) => ({ type: 'function', function: tool.function }))
    const choice = toolChoice(json.tool_choice)
    if (choice) body.tool_choice = choice
  }
  const format = responseFormat(json.response_format)
  if (format) body.response_format = format
  return body
}

/**
 * An OpenAI embeddings request as Cohere's: the texts, the input type Cohere's v3+ models require
 * (documents unless the channel's config says otherwise), float vectors.
 */
export function cohereEmbedBody(request: RelayRequest, inputType: string): Json {
  const input = request.json?.input
  const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')]
  const body: Json = { model: request.mappedModel, texts, input_type: inputType, embedding_types: ['float'] }
  if (typeof request.json?.dimensions === 'number') body.output_dimension = request.json.dimensions
  return body
}

/** The text of a rerank document given as a string or as `{text}`. */
export const documentText = (document: unknown): string =>
  typeof document === 'string' ? document : isRecord(document) ? String(document.text ?? '') : ''

/** A Jina-style rerank request as Cohere's Rerank v2 (documents as strings). */
export function cohereRerankBody(request: RelayRequest): Json {
  const json = request.json ?? {}
  const documents = Array.isArray(json.documents) ? json.documents : []
  const body: Json = { model: request.mappedModel, query: json.query, documents: documents.map(documentText) }
  if (typeof json.top_n === 'number') body.top_n = json.top_n
  if (typeof json.max_tokens_per_doc === 'number') body.max_tokens_per_doc = json.max_tokens_per_doc
  return body
}
