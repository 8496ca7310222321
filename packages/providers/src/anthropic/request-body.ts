/**
 * An OpenAI chat request as an Anthropic Messages request.
 * https://docs.anthropic.com/en/api/messages
 * System messages become `system`; tool results become user turns of `tool_result` blocks;
 * consecutive turns of one role are merged (the API wants user and assistant to alternate);
 * `max_tokens`, which Anthropic requires, defaults to DEFAULT_MAX_TOKENS.
 */
import type { InlineImage } from '../adaptor.ts'
import { withSystemPrompt } from '../openai-compatible/request-body.ts'
import { isRecord, type Json } from '../shared/json.ts'

/** What Anthropic must be sent as max_tokens when the client set none (one-api sent 4096). */
export const DEFAULT_MAX_TOKENS = 4096

type Block = Json

/** The text of an OpenAI content value (a string or a list of parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((part) => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => (part as { text: string }).text)
    .join('\n')
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s

/** The image URLs of a chat request that are not data URLs: the pipeline fetches them. */
export function remoteImageUrls(json: Json | undefined): string[] {
  const urls: string[] = []
  const messages = Array.isArray(json?.messages) ? json.messages : []
  for (const message of messages) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue
    for (const part of message.content) {
      const url = imageUrlOf(part)
      if (url !== undefined && !url.startsWith('data:')) urls.push(url)
    }
  }
  return urls
}

function imageUrlOf(part: unknown): string | undefined {
  if (!isRecord(part) || part.type !== 'image_url') return undefined
  const image = part.image_url
  if (typeof image === 'string') return image
  return isRecord(image) && typeof image.url === 'string' ? image.url : undefined
}

function imageBlock(url: string, images: ReadonlyMap<string, InlineImage> | undefined): Block {
  const data = DATA_URL.exec(url)
  if (data) return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } }
  const fetched = images?.get(url)
  if (fetched) {
    return { type: 'image', source: { type: 'base64', media_type: fetched.mediaType, data: fetched.base64 } }
  }
  // Not fetched (no fetcher in this context): Anthropic fetches URL sources itself.
  return { type: 'image', source: { type: 'url', url } }
}

function contentBlocks(content: unknown, images: ReadonlyMap<string, InlineImage> | undefined): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }]
  if (!Array.isArray(content)) return []
  const blocks: Block[] = []
  for (const part of content) {
    if (!isRecord(part)) continue
    if (part.type === 'text' && typeof part.text === 'string') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text })
      continue
    }
    const url = imageUrlOf(part)
    if (url !== undefined) blocks.push(imageBlock(url, images))
  }
  return blocks
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return {}
  try {
    const parsed = JSON.parse(value)
    return isRecord(parsed) ? parsed : { value: parsed }
  } catch {
    return {}
  }
}

function assistantBlocks(message: Json): Block[] {
  const blocks = contentBlocks(message.content, undefined)
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : []
  for (const call of calls) {
    if (!isRecord(call) || !isRecord(call.function)) continue
    blocks.push({
      type: 'tool_use',
      id: typeof call.id === 'string' ? call.id : `toolu_${blocks.length}`,
      name: call.function.name,
      input: parseArguments(call.function.arguments),
    })
  }
  return blocks
}

function toolResultBlock(message: Json, images: ReadonlyMap<string, InlineImage> | undefined): Block {
  const content = Array.isArray(message.content)
    ? contentBlocks(message.content, images)
    : contentText(message.content)
  return { type: 'tool_result', tool_use_id: message.tool_call_id, content }
}

/** The system text and the alternating turns of an OpenAI message list. */
export function convertMessages(
  messages: unknown[],
  images?: ReadonlyMap<string, InlineImage>,
): { system: string[]; turns: { role: 'user' | 'assistant'; content: Block[] }[] } {
  const system: string[] = []
  const turns: { role: 'user' | 'assistant'; content: Block[] }[] = []
  const add = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return
    const last = turns.at(-1)
    if (last && last.role === role) last.content.push(...blocks)
    else turns.push({ role, content: blocks })
  }
  for (const message of messages) {
    if (!isRecord(message)) continue
    if (message.role === 'system' || message.role === 'developer') {
      const text = contentText(message.content)
      if (text) system.push(text)
    } else if (message.role === 'assistant') add('assistant', assistantBlocks(message))
    else if (message.role === 'tool') add('user', [toolResultBlock(message, images)])
    else add('user', contentBlocks(message.content, images))
  }
  return { system, turns }
}

function convertTools(tools: unknown): Block[] | undefined {
  if (!Array.isArray(tools)) return undefined
  const converted = tools
    .filter((tool): tool is Json => isRecord(tool) && isRecord(tool.function))
    .map((tool) => {
      const fn = tool.function as Json
      return {
        name: fn.name,
        ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
        input_schema: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
      }
    })
  return converted.length > 0 ? converted : undefined
}

function convertToolChoice(choice: unknown, parallel: unknown): Json | undefined {
  const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {}
  if (choice === 'none') return { type: 'none' }
  if (choice === 'required') return { type: 'any', ...noParallel }
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { type: 'tool', name: choice.function.name, ...noParallel }
  }
  if (choice === 'auto' || parallel === false) return { type: 'auto', ...noParallel }
  return undefined
}

function stopSequences(stop: unknown): string[] | undefined {
  if (typeof stop === 'string') return [stop]
  if (Array.isArray(stop)) return stop.filter((item): item is string => typeof item === 'string')
  return undefined
}

export interface AnthropicBodyOptions {
  model: string
  stream: boolean
  systemPrompt?: string
  images?: ReadonlyMap<string, InlineImage>
}

/** The Messages request for an OpenAI chat request (`json`). */
export function anthropicBody(json: Json, options: AnthropicBodyOptions): Json {
  // The channel's forced system prompt replaces the client's first one, as for OpenAI-format channels.
  const messages = options.systemPrompt
    ? withSystemPrompt(json.messages, options.systemPrompt)
    : Array.isArray(json.messages)
      ? json.messages
      : []
  const { system, turns } = convertMessages(messages, options.images)
  const systemText = system.join('\n')
  const maxTokens = json.max_completion_tokens ?? json.max_tokens
  const body: Json = {
    model: options.model,
    max_tokens: typeof maxTokens === 'number' && maxTokens > 0 ? maxTokens : DEFAULT_MAX_TOKENS,
    messages: turns,
  }
  if (systemText) body.system = systemText
  if (options.stream) body.stream = true
  if (typeof json.temperature === 'number') body.temperature = Math.min(1, json.temperature)
  if (typeof json.top_p === 'number') body.top_p = json.top_p
  if (typeof json.top_k === 'number') body.top_k = json.top_k
  const stop = stopSequences(json.stop)
  if (stop && stop.length > 0) body.stop_sequences = stop
  const tools = convertTools(json.tools)
  if (tools) body.tools = tools
  const choice = convertToolChoice(json.tool_choice, json.parallel_tool_calls)
  if (choice && tools) body.tool_choice = choice
  if (typeof json.user === 'string') body.metadata = { user_id: json.user }
  // Extended thinking, asked for in Anthropic's own shape (one-api's later versions pass it on).
  // https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
  if (isRecord(json.thinking)) body.thinking = json.thinking
  return body
}
