/**
 * A client's OpenAI Responses request (`POST /v1/responses`) as an OpenAI chat request, which the
 * gateway bills, limits and routes like any chat completion, and which channels that do not serve
 * the Responses API are sent.
 * https://platform.openai.com/docs/api-reference/responses/create
 */
import { isRecord, type Json } from '../shared/json.ts'

/** A request the Responses API would refuse: the message for a 400. */
export class InvalidResponsesRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
  ) {
    super(message)
  }
}

/** The text of a function call's output, given as a string or as a list of content parts. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output
  if (!Array.isArray(output)) return output === undefined ? '' : JSON.stringify(output)
  return output
    .filter((part) => isRecord(part) && typeof part.text === 'string')
    .map((part) => (part as { text: string }).text)
    .join('')
}

/** A content part of an input message as a chat content part. */
function contentPart(part: unknown, index: number): Json {
  if (!isRecord(part)) throw new InvalidResponsesRequest('each content part must be an object', 'input')
  if (part.type === 'input_text' || part.type === 'output_text' || part.type === 'text') {
    if (typeof part.text !== 'string') throw new InvalidResponsesRequest('text must be a string', 'input')
    return { type: 'text', text: part.text }
  }
  if (part.type === 'refusal' && typeof part.refusal === 'string') return { type: 'text', text: part.refusal }
  if (part.type === 'input_image') {
    if (typeof part.image_url !== 'string' || part.image_url === '') {
      throw new InvalidResponsesRequest(
        `input[${index}]: input_image needs an image_url (file ids are not served)`,
        'input',
      )
    }
    const detail = typeof part.detail === 'string' ? { detail: part.detail } : {}
    return { type: 'image_url', image_url: { url: part.image_url, ...detail } }
  }
  throw new InvalidResponsesRequest(
    `input[${index}]: content of type ${String(part.type)} is not served`,
    'input',
  )
}

function messageContent(content: unknown, index: number): unknown {
  if (typeof content === 'string') return content
  if (!Array.isArray(content))
    throw new InvalidResponsesRequest(`input[${index}].content must be a string or a list`, 'input')
  const parts = content.map((part) => contentPart(part, index))
  return parts.every((part) => part.type === 'text') ? parts.map((part) => part.text).join('') : parts
}

const ROLES: Record<string, string> = {
  user: 'user',
  assistant: 'assistant',
  system: 'system',
  developer: 'system',
}

/** Input items in order as chat messages; consecutive function calls share one assistant message. */
function convertInput(input: unknown): Json[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }]
  if (!Array.isArray(input))
    throw new InvalidResponsesRequest('input must be a string or a list of items', 'input')
  const messages: Json[] = []
  input.forEach((item, index) => {
    if (!isRecord(item)) throw new InvalidResponsesRequest(`input[${index}] must be an object`, 'input')
    const type = item.type ?? 'message'
    if (type === 'message') {
      const role = typeof item.role === 'string' ? ROLES[item.role] : undefined
      if (!role)
        throw new InvalidResponsesRequest(`input[${index}].role is not one of the API's roles`, 'input')
      messages.push({ role, content: messageContent(item.content, index) })
    } else if (type === 'function_call') {
      const call = {
        id: item.call_id,
        type: 'function',
        function: { name: item.name, arguments: typeof item.arguments === 'string' ? item.arguments : '{}' },
      }
      const last = messages.at(-1)
      if (last?.role === 'assistant' && Array.isArray(last.tool_calls)) last.tool_calls.push(call)
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] })
    } else if (type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: outputText(item.output) })
    } else if (type !== 'reasoning') {
      // Reasoning items of an earlier answer carry nothing a chat model reads back.
      throw new InvalidResponsesRequest(
        `input[${index}]: items of type ${String(type)} are not served`,
        'input',
      )
    }
  })
  return messages
}

/** Function tools as chat tools; other tool kinds (web search, file search...) are left out. */
function convertTools(tools: unknown): Json[] | undefined {
  if (!Array.isArray(tools)) return undefined
  const converted = tools
    .filter(
      (tool): tool is Json => isRecord(tool) && tool.type === 'function' && typeof tool.name === 'string',
    )
    .map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
        parameters: tool.parameters ?? { type: 'object', properties: {} },
        ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
      },
    }))
  return converted.length > 0 ? converted : undefined
}

function convertToolChoice(choice: unknown): unknown {
  if (typeof choice === 'string') return choice
  if (isRecord(choice) && choice.type === 'function' && typeof choice.name === 'string')
    return { type: 'function', function: { name: choice.name } }
  return undefined
}

/** `text.format` as chat's response_format. */
function responseFormat(text: unknown): Json | undefined {
  const format = isRecord(text) && isRecord(text.format) ? text.format : undefined
  if (!format || format.type === 'text') return undefined
  if (format.type === 'json_object') return { type: 'json_object' }
  if (format.type === 'json_schema') {
    const { type: _type, ...schema } = format
    return { type: 'json_schema', json_schema: schema }
  }
  return undefined
}

/** Checks what the Responses API requires, then translates. */
export function responsesToChatRequest(json: Json): Json {
  if (typeof json.model !== 'string' || json.model === '')
    throw new InvalidResponsesRequest('Missing required parameter: model', 'model')
  if (json.input === undefined)
    throw new InvalidResponsesRequest('Missing required parameter: input', 'input')
  const messages: Json[] = []
  if (typeof json.instructions === 'string' && json.instructions !== '')
    messages.push({ role: 'system', content: json.instructions })
  messages.push(...convertInput(json.input))
  if (messages.length === 0) throw new InvalidResponsesRequest('input must not be empty', 'input')
  const chat: Json = { model: json.model, messages }
  if (json.stream === true) chat.stream = true
  if (json.max_output_tokens !== undefined && json.max_output_tokens !== null) {
    const max = json.max_output_tokens
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1)
      throw new InvalidResponsesRequest('max_output_tokens must be a positive integer', 'max_output_tokens')
    chat.max_tokens = max
  }
  for (const field of ['temperature', 'top_p'] as const)
    if (typeof json[field] === 'number') chat[field] = json[field]
  const tools = convertTools(json.tools)
  if (tools) chat.tools = tools
  const choice = convertToolChoice(json.tool_choice)
  if (tools && choice !== undefined) chat.tool_choice = choice
  if (tools && typeof json.parallel_tool_calls === 'boolean')
    chat.parallel_tool_calls = json.parallel_tool_calls
  const format = responseFormat(json.text)
  if (format) chat.response_format = format
  if (isRecord(json.reasoning) && typeof json.reasoning.effort === 'string')
    chat.reasoning_effort = json.reasoning.effort
  if (typeof json.user === 'string') chat.user = json.user
  return chat
}

/**
 * What of a Responses request only an upstream serving that API can honour (stored conversations,
 * built-in tools, file inputs): the reason a translating channel refuses it, or undefined.
 */
export function untranslatable(json: Json): string | undefined {
  if (
    typeof json.previous_response_id === 'string' ||
    (json.conversation !== undefined && json.conversation !== null)
  )
    return 'previous_response_id and conversation need a channel that serves the Responses API itself'
  if (Array.isArray(json.tools) && json.tools.some((tool) => !isRecord(tool) || tool.type !== 'function'))
    return 'only function tools are served by channels that do not serve the Responses API itself'
  return undefined
}
