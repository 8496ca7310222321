/**
 * An OpenAI chat request as a Gemini GenerateContentRequest, and an OpenAI embeddings request as
 * a batchEmbedContents request. Pure functions of the bodies: the URL and the credentials are the
 * caller's (Gemini's API key here, Vertex AI's bearer token elsewhere).
 * https://ai.google.dev/api/generate-content#request-body
 * https://ai.google.dev/gemini-api/docs/function-calling
 * https://ai.google.dev/api/embeddings#method:-models.batchembedcontents
 * System messages become `systemInstruction`; assistant turns are role `model`; tool results
 * become `functionResponse` parts of a user turn; consecutive turns of one role are merged.
 */
import type { InlineImage } from '../adaptor.ts'
import { contentText } from '../anthropic/request-body.ts'
import { withSystemPrompt } from '../openai-compatible/request-body.ts'
import { isRecord, type Json } from '../shared/json.ts'

type Part = Json

/** The harm categories one-api sets a threshold for, each at GEMINI_SAFETY_SETTING. */
export const SAFETY_CATEGORIES = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
] as const

/** GEMINI_SAFETY_SETTING's default, as one-api's. */
export const DEFAULT_SAFETY_THRESHOLD = 'BLOCK_NONE'

export const safetySettings = (threshold: string): Json[] =>
  SAFETY_CATEGORIES.map((category) => ({ category, threshold }))

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s

function imageUrlOf(part: Json): string | undefined {
  if (part.type !== 'image_url') return undefined
  const image = part.image_url
  if (typeof image === 'string') return image
  return isRecord(image) && typeof image.url === 'string' ? image.url : undefined
}

function imagePart(url: string, images: ReadonlyMap<string, InlineImage> | undefined): Part {
  const data = DATA_URL.exec(url)
  if (data) return { inlineData: { mimeType: data[1], data: data[2] } }
  const fetched = images?.get(url)
  if (fetched) return { inlineData: { mimeType: fetched.mediaType, data: fetched.base64 } }
  // Not fetched (no fetcher in this context, e.g. a channel test): Gemini reads file URIs itself.
  return { fileData: { fileUri: url } }
}

function userParts(content: unknown, images: ReadonlyMap<string, InlineImage> | undefined): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }]
  if (!Array.isArray(content)) return []
  const parts: Part[] = []
  for (const part of content) {
    if (!isRecord(part)) continue
    if (part.type === 'text' && typeof part.text === 'string') {
      if (part.text !== '') parts.push({ text: part.text })
      continue
    }
    const url = imageUrlOf(part)
    if (url !== undefined) parts.push(imagePart(url, images))
  }
  return parts
}

function parseObject(value: unknown): Json {
  if (typeof value !== 'string' || value.trim() === '') return {}
  try {
    const parsed = JSON.parse(value)
    return isRecord(parsed) ? parsed : { value: parsed }
  } catch {
    return { content: value }
  }
}

function modelParts(message: Json): Part[] {
  const parts = userParts(message.content, undefined)
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : []
  for (const call of calls) {
    if (!isRecord(call) || !isRecord(call.function)) continue
    parts.push({ functionCall: { name: call.function.name, args: parseObject(call.function.arguments) } })
  }
  return parts
}

/** A tool message as a functionResponse; Gemini names the function, OpenAI the call's id. */
function functionResponsePart(message: Json, callNames: Map<string, string>): Part {
  const id = typeof message.tool_call_id === 'string' ? message.tool_call_id : ''
  const name = callNames.get(id) ?? (typeof message.name === 'string' ? message.name : id)
  const text = contentText(message.content)
  let response: Json
  try {
    const parsed = JSON.parse(text)
    response = isRecord(parsed) ? parsed : { content: parsed }
  } catch {
    response = { content: text }
  }
  return { functionResponse: { name, response } }
}

export interface GeminiTurn {
  role: 'user' | 'model'
  parts: Part[]
}

/** The system text and the turns of an OpenAI message list. */
export function convertMessages(
  messages: unknown[],
  images?: ReadonlyMap<string, InlineImage>,
): { system: string[]; turns: GeminiTurn[] } {
  const system: string[] = []
  const turns: GeminiTurn[] = []
  const callNames = new Map<string, string>()
  const add = (role: 'user' | 'model', parts: Part[]) => {
    if (parts.length === 0) return
    const last = turns.at(-1)
    if (last && last.role === role) last.parts.push(...parts)
    else turns.push({ role, parts })
  }
  for (const message of messages) {
    if (!isRecord(message)) continue
    if (message.role === 'system' || message.role === 'developer') {
      const text = contentText(message.content)
      if (text) system.push(text)
    } else if (message.role === 'assistant') {
      for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
        if (isRecord(call) && typeof call.id === 'string' && isRecord(call.function)) {
          callNames.set(call.id, String(call.function.name))
        }
      }
      add('model', modelParts(message))
    } else if (message.role === 'tool') add('user', [functionResponsePart(message, callNames)])
    else add('user', userParts(message.content, images))
  }
  return { system, turns }
}

/** JSON Schema keywords Gemini's Schema object refuses ("Unknown name"). */
const UNSUPPORTED_SCHEMA_KEYS = new Set(['$schema', 'additionalProperties', 'strict', '$id'])

/** A function's parameters without the keywords Gemini's OpenAPI subset does not take. */
export function cleanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(cleanSchema)
  if (!isRecord(schema)) return schema
  const cleaned: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED_SCHEMA_KEYS.has(key)) continue
    // `properties` maps names to schemas: its keys are the caller's, never keywords.
    cleaned[key] =
      key === 'properties' && isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, cleanSchema(inner)]))
        : cleanSchema(value)
  }
  return cleaned
}

function functionDeclarations(tools: unknown): Json[] | undefined {
  if (!Array.isArray(tools)) return undefined
  const declarations = tools
    .filter((tool): tool is Json => isRecord(tool) && isRecord(tool.function))
    .map((tool) => {
      const fn = tool.function as Json
      const declaration: Json = { name: fn.name }
      if (typeof fn.description === 'string') declaration.description = fn.description
      if (isRecord(fn.parameters) && Object.keys(fn.parameters.properties ?? {}).length > 0) {
        declaration.parameters = cleanSchema(fn.parameters)
      }
      return declaration
    })
  return declarations.length > 0 ? declarations : undefined
}

function toolConfig(choice: unknown): Json | undefined {
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } }
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } }
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } }
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } }
  }
  return undefined
}

/** Thinking budgets for OpenAI's reasoning_effort, as Google's OpenAI compatibility layer maps them. */
const THINKING_BUDGETS: Record<string, number> = { minimal: 0, low: 1024, medium: 8192, high: 24576 }

function generationConfig(json: Json): Json {
  const config: Json = {}
  const copy = (from: string, to: string) => {
    if (typeof json[from] === 'number') config[to] = json[from]
  }
  copy('temperature', 'temperature')
  copy('top_p', 'topP')
  copy('top_k', 'topK')
  copy('n', 'candidateCount')
  copy('presence_penalty', 'presencePenalty')
  copy('frequency_penalty', 'frequencyPenalty')
  copy('seed', 'seed')
  const maxTokens = json.max_completion_tokens ?? json.max_tokens
  if (typeof maxTokens === 'number' && maxTokens > 0) config.maxOutputTokens = maxTokens
  const stop = typeof json.stop === 'string' ? [json.stop] : json.stop
  if (Array.isArray(stop) && stop.length > 0) config.stopSequences = stop
  const format = json.response_format
  if (isRecord(format) && (format.type === 'json_object' || format.type === 'json_schema')) {
    config.responseMimeType = 'application/json'
    const schema = isRecord(format.json_schema) ? format.json_schema.schema : undefined
    if (isRecord(schema)) config.responseSchema = cleanSchema(schema)
  }
  const budget =
    typeof json.reasoning_effort === 'string' ? THINKING_BUDGETS[json.reasoning_effort] : undefined
  if (budget !== undefined) config.thinkingConfig = { thinkingBudget: budget, includeThoughts: budget > 0 }
  return config
}

/**
 * Gemini 3 refuses a replayed function call without the thought signature it came with (400). An
 * OpenAI conversation cannot carry one, so the first call of each model turn gets Google's
 * documented placeholder that skips the check.
 * https://ai.google.dev/gemini-api/docs/thought-signatures
 */
const SIGNED_CALLS = /^gemini-3/
export const SKIP_SIGNATURE = 'skip_thought_signature_validator'

function signFunctionCalls(turns: GeminiTurn[]): void {
  for (const turn of turns) {
    if (turn.role !== 'model') continue
    const first = turn.parts.find((part) => part.functionCall !== undefined)
    if (first && first.thoughtSignature === undefined) first.thoughtSignature = SKIP_SIGNATURE
  }
}

/** Models that predate system instructions: the system text goes first as a user turn, as one-api sends it. */
const NO_SYSTEM_INSTRUCTION = /^gemini-(pro|1\.0-pro)(-|$)/

export interface GeminiChatOptions {
  /** The model the upstream is asked for (decides whether systemInstruction is taken). */
  model: string
  systemPrompt?: string
  images?: ReadonlyMap<string, InlineImage>
  /** GEMINI_SAFETY_SETTING: the threshold of every harm category. */
  safetyThreshold?: string
}

/** The GenerateContentRequest for an OpenAI chat request (`json`). */
export function geminiChatBody(json: Json, options: GeminiChatOptions): Json {
  // The channel's forced system prompt replaces the client's first one, as for OpenAI-format channels.
  const messages = options.systemPrompt
    ? withSystemPrompt(json.messages, options.systemPrompt)
    : Array.isArray(json.messages)
      ? json.messages
      : []
  const { system, turns } = convertMessages(messages, options.images)
  if (SIGNED_CALLS.test(options.model)) signFunctionCalls(turns)
  const systemText = system.join('\n')
  const body: Json = { contents: turns }
  if (systemText && NO_SYSTEM_INSTRUCTION.test(options.model)) {
    turns.unshift(
      { role: 'user', parts: [{ text: systemText }] },
      { role: 'model', parts: [{ text: 'Okay' }] },
    )
  } else if (systemText) body.systemInstruction = { parts: [{ text: systemText }] }
  body.safetySettings = safetySettings(options.safetyThreshold ?? DEFAULT_SAFETY_THRESHOLD)
  const declarations = functionDeclarations(json.tools)
  if (declarations) {
    body.tools = [{ functionDeclarations: declarations }]
    const config = toolConfig(json.tool_choice)
    if (config) body.toolConfig = config
  }
  const generation = generationConfig(json)
  if (Object.keys(generation).length > 0) body.generationConfig = generation
  return body
}

/** The texts of an OpenAI embeddings `input` (a string or a list of strings). */
export function embeddingInputs(input: unknown): string[] {
  if (typeof input === 'string') return [input]
  if (Array.isArray(input)) return input.filter((item): item is string => typeof item === 'string')
  return []
}

/** The batchEmbedContents request for an OpenAI embeddings request: one request per input. */
export function geminiEmbedBody(json: Json, model: string): Json {
  const dimensions = typeof json.dimensions === 'number' ? { outputDimensionality: json.dimensions } : {}
  return {
    requests: embeddingInputs(json.input).map((text) => ({
      model: `models/${model}`,
      content: { parts: [{ text }] },
      ...dimensions,
    })),
  }
}
