/**
 * OpenAI chat and embeddings requests as Ollama's native ones.
 * https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 * https://github.com/ollama/ollama/blob/main/docs/api.md#generate-embeddings
 */
import type { InlineImage, RelayRequest } from '../adaptor.ts'
import { withSystemPrompt } from '../openai-compatible/request-body.ts'
import { isRecord, type Json } from '../shared/json.ts'

const DATA_URL = /^data:([^;,]+)?;base64,(.*)$/s

/** Image URLs of a chat request that are not inline data (the pipeline fetches them). */
export function remoteImageUrls(json: Json | undefined): string[] {
  const urls: string[] = []
  for (const message of Array.isArray(json?.messages) ? json.messages : []) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue
    for (const part of message.content) {
      const url = isRecord(part) && isRecord(part.image_url) ? part.image_url.url : undefined
      if (typeof url === 'string' && !url.startsWith('data:')) urls.push(url)
    }
  }
  return urls
}

/** Ollama takes text and a list of base64 images (no data: prefix) per message. */
function contentAndImages(content: unknown, images: ReadonlyMap<string, InlineImage> | undefined): Json {
  if (!Array.isArray(content)) return { content: typeof content === 'string' ? content : '' }
  let text = ''
  const inline: string[] = []
  for (const part of content) {
    if (!isRecord(part)) continue
    if (part.type === 'text' && typeof part.text === 'string')
      text += text === '' ? part.text : `\n${part.text}`
    const url = isRecord(part.image_url) ? part.image_url.url : undefined
    if (typeof url !== 'string') continue
    const data = DATA_URL.exec(url)?.[2] ?? images?.get(url)?.base64
    if (data) inline.push(data)
  }
  return inline.length > 0 ? { content: text, images: inline } : { content: text }
}

/** OpenAI's tool calls as Ollama's: arguments as an object. */
function toolCalls(calls: unknown): Json[] | undefined {
  if (!Array.isArray(calls) || calls.length === 0) return undefined
  return calls.filter(isRecord).map((call) => {
    const fn = isRecord(call.function) ? call.function : {}
    let args: unknown = {}
    try {
      args = typeof fn.arguments === 'string' && fn.arguments !== '' ? JSON.parse(fn.arguments) : {}
    } catch {
      args = {}
    }
    return { function: { name: fn.name, arguments: args } }
  })
}

function message(turn: Json, images: ReadonlyMap<string, InlineImage> | undefined): Json {
  const role = turn.role === 'developer' ? 'system' : String(turn.role)
  const result: Json = { role, ...contentAndImages(turn.content, images) }
  const calls = role === 'assistant' ? toolCalls(turn.tool_calls) : undefined
  if (calls) result.tool_calls = calls
  if (role === 'tool' && typeof turn.name === 'string') result.tool_name = turn.name
  return result
}

/** OpenAI sampling fields and their names in Ollama's `options`. */
const OPTIONS: Array<[string, string]> = [
  ['temperature', 'temperature'],
  ['top_p', 'top_p'],
  ['seed', 'seed'],
  ['frequency_penalty', 'frequency_penalty'],
  ['presence_penalty', 'presence_penalty'],
  ['max_tokens', 'num_predict'],
  ['max_completion_tokens', 'num_predict'],
]

export function ollamaChatBody(request: RelayRequest, numCtx: number | undefined): Json {
  const json = request.json ?? {}
  const turns = request.systemPrompt ? withSystemPrompt(json.messages, request.systemPrompt) : json.messages
  const body: Json = {
    model: request.mappedModel,
    messages: (Array.isArray(turns) ? turns : [])
      .filter(isRecord)
      .map((turn) => message(turn, request.images)),
    // Ollama streams unless told not to.
    stream: request.stream,
  }
  const options: Json = {}
  for (const [from, to] of OPTIONS) if (typeof json[from] === 'number') options[to] = json[from]
  if (json.stop != null) options.stop = Array.isArray(json.stop) ? json.stop : [json.stop]
  if (numCtx) options.num_ctx = numCtx
  if (Object.keys(options).length > 0) body.options = options
  if (Array.isArray(json.tools) && json.tools.length > 0 && json.tool_choice !== 'none')
    body.tools = json.tools
  const format = isRecord(json.response_format) ? json.response_format : undefined
  if (format?.type === 'json_object') body.format = 'json'
  if (format?.type === 'json_schema' && isRecord(format.json_schema)) body.format = format.json_schema.schema
  return body
}

export function ollamaEmbedBody(request: RelayRequest): Json {
  const body: Json = { model: request.mappedModel, input: request.json?.input ?? '' }
  if (typeof request.json?.dimensions === 'number') body.dimensions = request.json.dimensions
  return body
}
