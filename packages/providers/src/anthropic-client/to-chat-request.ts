/**
 * A client's Anthropic Messages request (`POST /v1/messages`) as an OpenAI chat request, which
 * the gateway bills, limits and routes like any chat completion, and which channels that do not
 * speak the Messages API are sent.
 * https://docs.anthropic.com/en/api/messages
 */
import { isRecord, type Json } from '../shared/json.ts'

/** A request the Messages API would refuse: the message for a 400. */
export class InvalidMessagesRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
  ) {
    super(message)
  }
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((block) => isRecord(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => (block as { text: string }).text)
    .join('\n')
}

function imagePart(block: Json): Json | undefined {
  const source = block.source
  if (!isRecord(source)) return undefined
  if (source.type === 'base64' && typeof source.data === 'string') {
    return { type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } }
  }
  if (source.type === 'url' && typeof source.url === 'string') {
    return { type: 'image_url', image_url: { url: source.url } }
  }
  return undefined
}

/** One Anthropic turn as OpenAI messages: tool results become `tool` messages of their own. */
function convertTurn(turn: Json): Json[] {
  const role = turn.role === 'assistant' ? 'assistant' : 'user'
  if (typeof turn.content === 'string') return [{ role, content: turn.content }]
  if (!Array.isArray(turn.content))
    throw new InvalidMessagesRequest('content must be a string or a list of blocks', 'messages')
  const parts: Json[] = []
  const toolCalls: Json[] = []
  const toolMessages: Json[] = []
  for (const block of turn.content) {
    if (!isRecord(block)) continue
    if (block.type === 'text' && typeof block.text === 'string')
      parts.push({ type: 'text', text: block.text })
    else if (block.type === 'image') {
      const image = imagePart(block)
      if (image) parts.push(image)
    } else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      })
    } else if (block.type === 'tool_result') {
      const text = blockText(block.content)
      toolMessages.push({
        role: 'tool',
        tool_call_id: block.tool_use_id,
        content: block.is_error ? `Error: ${text}` : text,
      })
    }
  }
  const messages: Json[] = [...toolMessages]
  if (role === 'assistant') {
    const text = parts
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('')
    if (text !== '' || toolCalls.length > 0) {
      messages.push({
        role,
        content: text === '' ? null : text,
        ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      })
    }
  } else if (parts.length > 0) {
    const onlyText = parts.every((part) => part.type === 'text')
    messages.push({ role, content: onlyText ? parts.map((part) => part.text).join('\n') : parts })
  }
  return messages
}

function convertTools(tools: unknown): Json[] | undefined {
  if (!Array.isArray(tools)) return undefined
  const converted = tools
    .filter(
      (tool): tool is Json =>
        isRecord(tool) && typeof tool.name === 'string' && tool.input_schema !== undefined,
    )
    .map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
        parameters: tool.input_schema,
      },
    }))
  return converted.length > 0 ? converted : undefined
}

function convertToolChoice(choice: unknown): unknown {
  if (!isRecord(choice)) return undefined
  if (choice.type === 'any') return 'required'
  if (choice.type === 'none') return 'none'
  if (choice.type === 'tool') return { type: 'function', function: { name: choice.name } }
  return 'auto'
}

/** Checks what the Messages API requires, then translates. */
export function messagesToChatRequest(json: Json): Json {
  if (typeof json.model !== 'string' || json.model === '')
    throw new InvalidMessagesRequest('model: Field required', 'model')
  if (typeof json.max_tokens !== 'number' || !Number.isInteger(json.max_tokens) || json.max_tokens < 1) {
    throw new InvalidMessagesRequest('max_tokens: Field required (a positive integer)', 'max_tokens')
  }
  if (!Array.isArray(json.messages) || json.messages.length === 0) {
    throw new InvalidMessagesRequest('messages: at least one message is required', 'messages')
  }
  const messages: Json[] = []
  const system = blockText(json.system)
  if (system) messages.push({ role: 'system', content: system })
  for (const turn of json.messages) {
    if (!isRecord(turn)) throw new InvalidMessagesRequest('each message must be an object', 'messages')
    messages.push(...convertTurn(turn))
  }
  const chat: Json = { model: json.model, messages, max_tokens: json.max_tokens }
  if (json.stream === true) chat.stream = true
  for (const field of ['temperature', 'top_p'] as const)
    if (typeof json[field] === 'number') chat[field] = json[field]
  if (Array.isArray(json.stop_sequences) && json.stop_sequences.length > 0) chat.stop = json.stop_sequences
  const tools = convertTools(json.tools)
  if (tools) chat.tools = tools
  const choice = convertToolChoice(json.tool_choice)
  if (tools && choice) chat.tool_choice = choice
  if (isRecord(json.tool_choice) && json.tool_choice.disable_parallel_tool_use === true)
    chat.parallel_tool_calls = false
  if (isRecord(json.metadata) && typeof json.metadata.user_id === 'string') chat.user = json.metadata.user_id
  return chat
}
