/**
 * Google's Gemini API (`/{version}/models/{model}:{action}`): the key checked as Google checks it
 * (`x-goog-api-key` or `?key=`), the request body checked for what Google refuses (unknown
 * fields, empty contents, bad roles, bad safety settings), then generateContent,
 * streamGenerateContent (SSE with `alt=sse`, a JSON array without), countTokens and
 * batchEmbedContents, with the same deterministic usage as the OpenAI side.
 * https://ai.google.dev/api/generate-content
 * https://ai.google.dev/api/tokens
 * https://ai.google.dev/api/embeddings
 * https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { script } from './chat.ts'
import { sendJson } from './errors.ts'
import type { FaultPlan } from './faults.ts'
import { isRecord, type Json } from './json.ts'
import { writeStream } from './stream-writer.ts'
import { completionPieces, generatedText, piece } from './usage-rules.ts'

export type GeminiAction = 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'batchEmbedContents'

export interface GeminiRoute {
  version: string
  model: string
  action: GeminiAction
}

const GEMINI_PATH =
  /^\/(v1|v1beta|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens|batchEmbedContents)$/

export function matchGeminiRoute(method: string, pathname: string): GeminiRoute | undefined {
  const match = GEMINI_PATH.exec(pathname)
  if (!match || method !== 'POST') return undefined
  return { version: match[1]!, model: decodeURIComponent(match[2]!), action: match[3] as GeminiAction }
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
}

const MESSAGES: Record<number, string> = {
  404: 'models/{model} is not found for API version v1beta, or is not supported for generateContent.',
  429: 'Resource has been exhausted (e.g. check quota).',
  500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  503: 'The model is overloaded. Please try again later.',
}

export function geminiErrorBody(status: number, message: string, details?: unknown[]): string {
  const error: Record<string, unknown> = { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' }
  if (details) error.details = details
  return JSON.stringify({ error })
}

export function sendGeminiError(
  response: ServerResponse,
  status: number,
  model: string,
  body?: unknown,
): void {
  const text =
    body === undefined
      ? geminiErrorBody(
          status,
          (MESSAGES[status] ?? `Mock upstream error ${status}.`).replace('{model}', model),
        )
      : typeof body === 'string'
        ? body
        : JSON.stringify(body)
  sendJson(response, status, text)
}

const KEY_INVALID = geminiErrorBody(400, 'API key not valid. Please pass a valid API key.', [
  {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'API_KEY_INVALID',
    domain: 'googleapis.com',
    metadata: { service: 'generativelanguage.googleapis.com' },
  },
])

/** The key of a Gemini request: the `x-goog-api-key` header, else the `key` query parameter. */
export function geminiKeyOf(headers: IncomingHttpHeaders, query: string): string {
  const header = headers['x-goog-api-key']
  if (typeof header === 'string' && header !== '') return header
  return new URLSearchParams(query).get('key') ?? ''
}

/** Google's answers to a missing key (403) and to a wrong one (400 API_KEY_INVALID). True when refused. */
export function refuseGeminiKey(
  response: ServerResponse,
  key: string,
  apiKeys: ReadonlySet<string> | undefined,
): boolean {
  if (key === '') {
    const message =
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."
    sendJson(response, 403, geminiErrorBody(403, message))
    return true
  }
  if (apiKeys && !apiKeys.has(key)) {
    sendJson(response, 400, KEY_INVALID)
    return true
  }
  return false
}

const REQUEST_FIELDS = new Set([
  'contents',
  'systemInstruction',
  'system_instruction',
  'tools',
  'toolConfig',
  'safetySettings',
  'generationConfig',
  'cachedContent',
])
const HARM_CATEGORIES = new Set([
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
])
const THRESHOLDS = new Set([
  'BLOCK_NONE',
  'BLOCK_ONLY_HIGH',
  'BLOCK_MEDIUM_AND_ABOVE',
  'BLOCK_LOW_AND_ABOVE',
  'HARM_BLOCK_THRESHOLD_UNSPECIFIED',
  'OFF',
])

/** What Google would refuse in a GenerateContentRequest, or undefined. */
export function invalidGenerateRequest(json: Json): string | undefined {
  for (const key of Object.keys(json)) {
    if (!REQUEST_FIELDS.has(key))
      return `Invalid JSON payload received. Unknown name "${key}": Cannot find field.`
  }
  if (!Array.isArray(json.contents) || json.contents.length === 0) {
    return '* GenerateContentRequest.contents: contents is not specified'
  }
  for (const content of json.contents) {
    if (!isRecord(content) || !Array.isArray(content.parts) || content.parts.length === 0) {
      return '* GenerateContentRequest.contents.parts: contents.parts must not be empty.'
    }
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model') {
      return 'Please use a valid role: user, model.'
    }
  }
  for (const setting of Array.isArray(json.safetySettings) ? json.safetySettings : []) {
    if (!isRecord(setting) || !HARM_CATEGORIES.has(String(setting.category))) {
      return "Invalid value at 'safety_settings[0].category'"
    }
    if (!THRESHOLDS.has(String(setting.threshold))) return "Invalid value at 'safety_settings[0].threshold'"
  }
  return undefined
}

/** Prompt tokens: the words of every text part (contents and system instruction), at least 1. */
export function geminiPromptTokens(json: Json): number {
  let words = 0
  const count = (content: unknown) => {
    const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts : []
    for (const part of parts) {
      if (isRecord(part) && typeof part.text === 'string' && part.text.trim() !== '') {
        words += part.text.trim().split(/\s+/).length
      }
    }
  }
  for (const content of Array.isArray(json.contents) ? json.contents : []) count(content)
  count(json.systemInstruction ?? json.system_instruction)
  return Math.max(1, words)
}

/** The function to call: the only allowed one, else the first declared; none in mode NONE. */
function functionToCall(json: Json): string | undefined {
  const tools = Array.isArray(json.tools) ? json.tools.filter(isRecord) : []
  const declarations = tools.flatMap((tool) =>
    Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations : [],
  )
  const config = isRecord(json.toolConfig) ? json.toolConfig.functionCallingConfig : undefined
  if (declarations.length === 0 || (isRecord(config) && config.mode === 'NONE')) return undefined
  const allowed =
    isRecord(config) && Array.isArray(config.allowedFunctionNames) ? config.allowedFunctionNames : []
  if (typeof allowed[0] === 'string') return allowed[0]
  const first = declarations[0] as { name?: unknown }
  return typeof first?.name === 'string' ? first.name : 'mock_tool'
}

const MOCK_ARGS = { mock: true }

function usageMetadata(prompt: number, output: number, faults: FaultPlan): Json {
  const cached = Math.min(faults.cachedTokens ?? 0, prompt)
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: output,
    totalTokenCount: prompt + output,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
  }
}

function answer(
  model: string,
  parts: Json[],
  finishReason: string | undefined,
  usage: Json | undefined,
): Json {
  const candidate: Json = { content: { parts, role: 'model' }, index: 0 }
  if (finishReason) candidate.finishReason = finishReason
  return {
    candidates: [candidate],
    ...(usage ? { usageMetadata: usage } : {}),
    modelVersion: model,
    responseId: 'mockGeminiResponse',
  }
}

function generate(
  response: ServerResponse,
  json: Json,
  route: GeminiRoute,
  sse: boolean,
  faults: FaultPlan,
): Promise<void> | void {
  const invalid = invalidGenerateRequest(json)
  if (invalid) return sendJson(response, 400, geminiErrorBody(400, invalid))
  const tool = functionToCall(json)
  const config = isRecord(json.generationConfig) ? json.generationConfig : {}
  const { pieces, finishReason } = completionPieces({ max_tokens: config.maxOutputTokens }, faults.chunks)
  const output = tool ? 1 : pieces
  const prompt = faults.promptTokens ?? geminiPromptTokens(json)
  const usage = faults.noUsage ? undefined : usageMetadata(prompt, output, faults)
  const reason = finishReason === 'length' && !tool ? 'MAX_TOKENS' : 'STOP'
  const { model } = route
  if (route.action === 'generateContent') {
    const parts = tool
      ? [{ functionCall: { name: tool, args: MOCK_ARGS } }]
      : [{ text: generatedText(pieces) }]
    return sendJson(response, 200, JSON.stringify(answer(model, parts, reason, usage)))
  }
  // Each event holds the next piece; usage so far rides along, the last one has the finish reason.
  const promptOnly = faults.noUsage ? undefined : { promptTokenCount: prompt, totalTokenCount: prompt }
  const events = tool ? 1 : Math.max(1, pieces)
  const body = (index: number) => {
    const last = index === events - 1
    const parts = tool
      ? [{ functionCall: { name: tool, args: MOCK_ARGS } }]
      : [{ text: pieces > 0 ? piece(index) : '' }]
    return answer(model, parts, last ? reason : undefined, last ? usage : promptOnly)
  }
  if (faults.streamError) {
    const error = geminiErrorBody(503, MESSAGES[503]!)
    return writeStream(
      response,
      script(2, (index) => `data: ${index === 0 ? JSON.stringify(body(0)) : error}\r\n\r\n`),
      faults,
    )
  }
  if (sse)
    return writeStream(
      response,
      script(events, (index) => `data: ${JSON.stringify(body(index))}\r\n\r\n`),
      faults,
    )
  // Without alt=sse Google streams one JSON array, an element at a time.
  const element = (index: number) =>
    `${index === 0 ? '[' : ',\r\n'}${JSON.stringify(body(index))}${index === events - 1 ? ']' : ''}`
  return writeStream(response, script(events, element), faults, {
    'content-type': 'application/json; charset=UTF-8',
  })
}

/** The status and body of a batchEmbedContents answer: one vector per request. */
function embedAnswer(json: Json, model: string): [number, string] {
  const requests = Array.isArray(json.requests) ? json.requests : []
  if (requests.length === 0) {
    return [400, geminiErrorBody(400, '* BatchEmbedContentsRequest.requests: requests is not specified')]
  }
  const embeddings = []
  for (const [index, request] of requests.entries()) {
    if (!isRecord(request) || request.model !== `models/${model}`) {
      const message = `* BatchEmbedContentsRequest.requests[${index}].model: the model of each request must be models/${model}`
      return [400, geminiErrorBody(400, message)]
    }
    const size = typeof request.outputDimensionality === 'number' ? request.outputDimensionality : 8
    embeddings.push({
      values: Array.from({ length: size }, (_, at) => Number(((index + 1) / (at + 2)).toFixed(6))),
    })
  }
  return [200, JSON.stringify({ embeddings })]
}

function countTokens(response: ServerResponse, json: Json): void {
  const request = isRecord(json.generateContentRequest) ? json.generateContentRequest : json
  const totalTokens = geminiPromptTokens(request)
  sendJson(
    response,
    200,
    JSON.stringify({ totalTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: totalTokens }] }),
  )
}

export function handleGemini(
  response: ServerResponse,
  json: Json,
  route: GeminiRoute,
  query: string,
  faults: FaultPlan,
): Promise<void> | void {
  switch (route.action) {
    case 'generateContent':
      return generate(response, json, route, false, faults)
    case 'streamGenerateContent':
      return generate(response, json, route, new URLSearchParams(query).get('alt') === 'sse', faults)
    case 'batchEmbedContents':
      return sendJson(response, ...embedAnswer(json, route.model))
    case 'countTokens':
      return countTokens(response, json)
  }
}
