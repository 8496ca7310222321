/**
 * A client's Gemini GenerateContentRequest (`POST /v1beta/models/{model}:generateContent`) as an
 * OpenAI chat request, which the gateway bills, limits and routes like any chat completion, and
 * which channels that do not speak Gemini's API are sent.
 * https://ai.google.dev/api/generate-content#request-body
 * https://ai.google.dev/api/caching#Content
 */
import { isRecord, type Json } from '../shared/json.ts'

/** A request Google would refuse: the message for a 400. */
export class InvalidGenerateContentRequest extends Error {}

/** Gemini's Schema spells types in capitals (the SDKs' Type.OBJECT); JSON Schema in lower case. */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema)
  if (!isRecord(schema)) return schema
  const result: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') result.type = value.toLowerCase()
    else if (key === 'properties' && isRecord(value)) {
      result.properties = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [name, toJsonSchema(inner)]),
      )
    } else result[key] = toJsonSchema(value)
  }
  return result
}

/** Function call ids: Gemini has none, OpenAI pairs each tool result with its call by id. */
class CallIds {
  private count = 0
  private readonly open = new Map<string, string[]>()

  next(name: string, given: unknown): string {
    const id = typeof given === 'string' && given !== '' ? given : `call_${++this.count}`
    this.open.set(name, [...(this.open.get(name) ?? []), id])
    return id
  }

  /** The id of the oldest call of `name` not answered yet. */
  answer(name: string, given: unknown): string {
    if (typeof given === 'string' && given !== '') return given
    const ids = this.open.get(name) ?? []
    return ids.shift() ?? `call_${name}`
  }
}

function mediaPart(mimeType: unknown, url: string): Json {
  if (typeof mimeType === 'string' && !mimeType.startsWith('image/')) {
    // Only images have an OpenAI form; other media are named, not dropped silently.
    return { type: 'text', text: `[${mimeType} attachment]` }
  }
  return { type: 'image_url', image_url: { url } }
}

/** One Gemini turn as OpenAI messages: function responses become `tool` messages of their own. */
function convertContent(content: Json, ids: CallIds): Json[] {
  const role = content.role === 'model' ? 'assistant' : 'user'
  const parts: Json[] = []
  const toolCalls: Json[] = []
  const toolMessages: Json[] = []
  for (const part of Array.isArray(content.parts) ? content.parts : []) {
    if (!isRecord(part) || part.thought === true) continue
    if (typeof part.text === 'string') parts.push({ type: 'text', text: part.text })
    else if (isRecord(part.inlineData) && typeof part.inlineData.data === 'string') {
      const { mimeType, data } = part.inlineData
      parts.push(mediaPart(mimeType, `data:${mimeType};base64,${data}`))
    } else if (isRecord(part.fileData) && typeof part.fileData.fileUri === 'string') {
      parts.push(mediaPart(part.fileData.mimeType, part.fileData.fileUri))
    } else if (isRecord(part.functionCall)) {
      const name = String(part.functionCall.name ?? '')
      toolCalls.push({
        id: ids.next(name, part.functionCall.id),
        type: 'function',
        function: { name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      })
    } else if (isRecord(part.functionResponse)) {
      const name = String(part.functionResponse.name ?? '')
      toolMessages.push({
        role: 'tool',
        tool_call_id: ids.answer(name, part.functionResponse.id),
        content: JSON.stringify(part.functionResponse.response ?? {}),
      })
    }
  }
  const messages: Json[] = [...toolMessages]
  const onlyText = parts.every((part) => part.type === 'text')
  const text = parts.map((part) => part.text).join('')
  if (role === 'assistant') {
    if (text !== '' || toolCalls.length > 0) {
      messages.push({
        role,
        content: text === '' ? null : text,
        ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      })
    }
  } else if (parts.length > 0) messages.push({ role, content: onlyText ? text : parts })
  return messages
}

function systemText(instruction: unknown): string {
  if (typeof instruction === 'string') return instruction
  if (!isRecord(instruction) || !Array.isArray(instruction.parts)) return ''
  return instruction.parts
    .filter((part): part is Json => isRecord(part) && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n')
}

function convertTools(tools: unknown): Json[] | undefined {
  if (!Array.isArray(tools)) return undefined
  const converted: Json[] = []
  for (const tool of tools) {
    if (!isRecord(tool) || !Array.isArray(tool.functionDeclarations)) continue
    for (const declaration of tool.functionDeclarations) {
      if (!isRecord(declaration) || typeof declaration.name !== 'string') continue
      const parameters = declaration.parametersJsonSchema ?? toJsonSchema(declaration.parameters)
      converted.push({
        type: 'function',
        function: {
          name: declaration.name,
          ...(typeof declaration.description === 'string' ? { description: declaration.description } : {}),
          parameters: isRecord(parameters) ? parameters : { type: 'object', properties: {} },
        },
      })
    }
  }
  return converted.length > 0 ? converted : undefined
}

function convertToolConfig(config: unknown): unknown {
  const calling = isRecord(config) ? config.functionCallingConfig : undefined
  if (!isRecord(calling)) return undefined
  const allowed = Array.isArray(calling.allowedFunctionNames) ? calling.allowedFunctionNames : []
  if (calling.mode === 'NONE') return 'none'
  if (calling.mode === 'ANY' && allowed.length === 1)
    return { type: 'function', function: { name: allowed[0] } }
  if (calling.mode === 'ANY') return 'required'
  return calling.mode === 'AUTO' ? 'auto' : undefined
}

function applyGenerationConfig(chat: Json, config: unknown): void {
  if (!isRecord(config)) return
  const copy = (from: string, to: string) => {
    if (typeof config[from] === 'number') chat[to] = config[from]
  }
  copy('temperature', 'temperature')
  copy('topP', 'top_p')
  copy('maxOutputTokens', 'max_tokens')
  copy('candidateCount', 'n')
  copy('presencePenalty', 'presence_penalty')
  copy('frequencyPenalty', 'frequency_penalty')
  copy('seed', 'seed')
  if (Array.isArray(config.stopSequences) && config.stopSequences.length > 0) chat.stop = config.stopSequences
  const schema = config.responseJsonSchema ?? config.responseSchema
  if (isRecord(schema)) {
    chat.response_format = {
      type: 'json_schema',
      json_schema: { name: 'response', schema: toJsonSchema(schema) },
    }
  } else if (config.responseMimeType === 'application/json') chat.response_format = { type: 'json_object' }
}

/** Checks what Google requires, then translates; the model and the stream come from the path. */
export function generateContentToChatRequest(json: Json, model: string, stream: boolean): Json {
  if (!Array.isArray(json.contents) || json.contents.length === 0) {
    throw new InvalidGenerateContentRequest('* GenerateContentRequest.contents: contents is not specified')
  }
  const messages: Json[] = []
  const system = systemText(json.systemInstruction ?? json.system_instruction)
  if (system) messages.push({ role: 'system', content: system })
  const ids = new CallIds()
  for (const content of json.contents) {
    if (!isRecord(content))
      throw new InvalidGenerateContentRequest(
        '* GenerateContentRequest.contents: each content must be an object',
      )
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model') {
      throw new InvalidGenerateContentRequest('Please use a valid role: user, model.')
    }
    messages.push(...convertContent(content, ids))
  }
  const chat: Json = { model, messages }
  // The usage chunk is asked for: the answer's last event carries usageMetadata.
  if (stream) Object.assign(chat, { stream: true, stream_options: { include_usage: true } })
  applyGenerationConfig(chat, json.generationConfig)
  const tools = convertTools(json.tools)
  if (tools) chat.tools = tools
  const choice = convertToolConfig(json.toolConfig)
  if (tools && choice) chat.tool_choice = choice
  return chat
}
