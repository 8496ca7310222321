/**
 * Requests to Ali DashScope's native API (channel type 17), with the conversions one-api makes.
 * https://help.aliyun.com/zh/model-studio/developer-reference/use-qwen-by-calling-api
 * https://help.aliyun.com/zh/model-studio/developer-reference/text-embedding-synchronous-api
 * https://help.aliyun.com/zh/model-studio/developer-reference/text-to-image-api-reference
 */
import type { ChannelCredentials, RelayRequest } from '../adaptor.ts'
import { isRecord, type Json } from '../shared/json.ts'

export const ALI_DEFAULT_BASE_URL = 'https://dashscope.aliyuncs.com'
export const TEXT_PATH = '/api/v1/services/aigc/text-generation/generation'
export const MULTIMODAL_PATH = '/api/v1/services/aigc/multimodal-generation/generation'
export const EMBEDDING_PATH = '/api/v1/services/embeddings/text-embedding/text-embedding'
export const IMAGE_PATH = '/api/v1/services/aigc/text2image/image-synthesis'
export const TASK_PATH = '/api/v1/tasks/'
/** DashScope refuses a top_p of 1; one-api caps it just below. */
const TOP_P_MAX = 0.9999
/** A model name ending so asks for web search (`enable_search`), as one-api reads it. */
const INTERNET_SUFFIX = '-internet'
/** one-api's names of the Stable Diffusion models and DashScope's. */
const IMAGE_MODEL_NAMES: Record<string, string> = {
  'ali-stable-diffusion-xl': 'stable-diffusion-xl',
  'ali-stable-diffusion-v1.5': 'stable-diffusion-v1.5',
}

export const baseUrl = (channel: ChannelCredentials): string =>
  (channel.baseUrl || ALI_DEFAULT_BASE_URL).replace(/\/+$/, '')

/**
 * Bearer key, and the channel's `plugin` config as `X-DashScope-Plugin` (old databases keep it in
 * the `other` column); `extra` adds the call's own DashScope headers.
 */
export function aliHeaders(
  channel: ChannelCredentials,
  extra: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Authorization: `Bearer ${channel.key}`,
    ...extra,
  }
  const configured = channel.config?.plugin
  const plugin =
    typeof configured === 'string' && configured.trim() !== ''
      ? configured.trim()
      : isRecord(configured)
        ? JSON.stringify(configured)
        : channel.other?.trim()
  if (plugin) headers['X-DashScope-Plugin'] = plugin
  return headers
}

const hasImage = (messages: unknown[]): boolean =>
  messages.some(
    (message) =>
      isRecord(message) &&
      Array.isArray(message.content) &&
      message.content.some((part) => isRecord(part) && part.type === 'image_url'),
  )

/** OpenAI content parts as DashScope's multimodal ones (`{text}`, `{image}`). */
function multimodalContent(content: unknown): Json[] {
  if (typeof content === 'string') return [{ text: content }]
  if (!Array.isArray(content)) return []
  const parts: Json[] = []
  for (const part of content) {
    if (!isRecord(part)) continue
    if (part.type === 'text' && typeof part.text === 'string') parts.push({ text: part.text })
    const image = isRecord(part.image_url) ? part.image_url.url : undefined
    if (part.type === 'image_url' && typeof image === 'string') parts.push({ image })
  }
  return parts
}

const textContent = (content: unknown): unknown =>
  Array.isArray(content)
    ? content
        .filter((part) => isRecord(part) && part.type === 'text')
        .map((part) => (part as Json).text)
        .join('')
    : content

const MESSAGE_FIELDS = ['name', 'tool_calls', 'tool_call_id', 'partial'] as const

function dashScopeMessages(
  messages: unknown[],
  systemPrompt: string | undefined,
  multimodal: boolean,
): Json[] {
  const list = messages.filter(isRecord)
  const withSystem =
    systemPrompt === undefined
      ? list
      : [{ role: 'system', content: systemPrompt }, ...list.filter((message) => message.role !== 'system')]
  return withSystem.map((message) => {
    const converted: Json = {
      role: message.role,
      content: multimodal ? multimodalContent(message.content) : textContent(message.content ?? ''),
    }
    for (const field of MESSAGE_FIELDS) if (message[field] !== undefined) converted[field] = message[field]
    return converted
  })
}

/** OpenAI's sampling fields as DashScope's `parameters` (names it shares, and its own). */
function chatParameters(json: Json, stream: boolean, search: boolean): Json {
  const parameters: Json = { result_format: 'message', incremental_output: stream }
  for (const field of ['temperature', 'top_k', 'seed', 'stop', 'presence_penalty', 'tools', 'tool_choice']) {
    if (json[field] !== undefined && json[field] !== null) parameters[field] = json[field]
  }
  if (typeof json.top_p === 'number') parameters.top_p = Math.min(json.top_p, TOP_P_MAX)
  const maxTokens = json.max_completion_tokens ?? json.max_tokens
  if (typeof maxTokens === 'number') parameters.max_tokens = maxTokens
  if (json.parallel_tool_calls !== undefined) parameters.parallel_tool_calls = json.parallel_tool_calls
  if (search) parameters.enable_search = true
  return parameters
}

/** The chat request's path and body: the multimodal service when a message holds an image. */
export function chatRequest(request: RelayRequest): { path: string; body: Json } {
  const json = request.json ?? {}
  const messages = Array.isArray(json.messages) ? json.messages : []
  const search = request.mappedModel.endsWith(INTERNET_SUFFIX)
  const model = search ? request.mappedModel.slice(0, -INTERNET_SUFFIX.length) : request.mappedModel
  const multimodal = hasImage(messages)
  return {
    path: multimodal ? MULTIMODAL_PATH : TEXT_PATH,
    body: {
      model,
      input: { messages: dashScopeMessages(messages, request.systemPrompt, multimodal) },
      parameters: chatParameters(json, request.stream, search),
    },
  }
}

export function embeddingBody(request: RelayRequest): Json {
  const input = request.json?.input
  const texts = Array.isArray(input) ? input : [input]
  const parameters: Json = {}
  if (typeof request.json?.dimensions === 'number') parameters.dimension = request.json.dimensions
  return { model: request.mappedModel, input: { texts }, parameters }
}

export function imageBody(request: RelayRequest): Json {
  const json = request.json ?? {}
  const input: Json = { prompt: json.prompt }
  if (typeof json.negative_prompt === 'string') input.negative_prompt = json.negative_prompt
  const parameters: Json = { n: typeof json.n === 'number' ? json.n : 1 }
  if (typeof json.size === 'string') parameters.size = json.size.replace('x', '*')
  return { model: IMAGE_MODEL_NAMES[request.mappedModel] ?? request.mappedModel, input, parameters }
}
