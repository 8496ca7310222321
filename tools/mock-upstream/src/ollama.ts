/**
 * Ollama's native API: POST /api/chat (one JSON answer, or newline-delimited JSON lines when
 * `stream` is not false, as Ollama streams by default; whole tool calls when the request has tools)
 * and /api/embed, with the same deterministic usage as the OpenAI side reported as
 * prompt_eval_count and eval_count, and errors as Ollama writes them (`{"error": "..."}`).
 * https://github.com/ollama/ollama/blob/main/docs/api.md
 */
import type { ServerResponse } from 'node:http'
import { script } from './chat.ts'
import { sendJson } from './errors.ts'
import type { FaultPlan } from './faults.ts'
import type { Json } from './json.ts'
import { writeStream } from './stream-writer.ts'
import { generatedText, piece, promptTokensOf } from './usage-rules.ts'

const CREATED_AT = '2024-07-22T20:33:28.123648Z'
const NDJSON_HEADERS = { 'content-type': 'application/x-ndjson' }
const TOOL_ARGUMENTS = { mock: true }
const TOOL_TOKENS = 5

const MESSAGES: Record<number, string> = {
  400: 'invalid request (mock upstream)',
  401: 'unauthorized',
  404: 'model "{model}" not found, try pulling it first',
  429: 'server busy, please try again.  maximum pending requests exceeded',
  500: 'llama runner process has terminated',
}

export function sendOllamaError(
  response: ServerResponse,
  status: number,
  model: string,
  body?: unknown,
): void {
  const error = (MESSAGES[status] ?? `mock upstream error ${status}`).replace('{model}', model)
  sendJson(
    response,
    status,
    body === undefined ? JSON.stringify({ error }) : typeof body === 'string' ? body : JSON.stringify(body),
  )
}

function toolName(json: Json): string | undefined {
  const tools = Array.isArray(json.tools) ? (json.tools as Json[]) : []
  const fn = tools[0]?.function as Json | undefined
  return typeof fn?.name === 'string' ? fn.name : undefined
}

/** Words of the messages' text (images are not counted), at least 1. */
const promptTokens = (json: Json) => promptTokensOf({ messages: json.messages })

function pieces(json: Json, faults: FaultPlan): { count: number; reason: string } {
  const wanted = faults.chunks ?? 5
  const options = (json.options ?? {}) as Json
  const limit = typeof options.num_predict === 'number' ? options.num_predict : undefined
  return limit !== undefined && limit < wanted
    ? { count: limit, reason: 'length' }
    : { count: wanted, reason: 'stop' }
}

export function handleOllamaChat(response: ServerResponse, json: Json, model: string, faults: FaultPlan) {
  if (!Array.isArray(json.messages))
    return sendOllamaError(response, 400, model, { error: 'messages are required' })
  const tool = toolName(json)
  const { count, reason } = pieces(json, faults)
  const counts = {
    total_duration: 885095291,
    load_duration: 3753500,
    prompt_eval_count: faults.promptTokens ?? promptTokens(json),
    prompt_eval_duration: 328493000,
    eval_count: tool ? TOOL_TOKENS : count,
    eval_duration: 552222000,
  }
  const toolCalls = tool ? [{ function: { name: tool, arguments: TOOL_ARGUMENTS } }] : undefined
  const head = { model, created_at: CREATED_AT }
  if (json.stream === false) {
    const message = tool
      ? { role: 'assistant', content: '', tool_calls: toolCalls }
      : { role: 'assistant', content: generatedText(count) }
    return sendJson(
      response,
      200,
      JSON.stringify({ ...head, message, done: true, done_reason: reason, ...counts }),
    )
  }
  const lines: Json[] = tool
    ? [{ ...head, message: { role: 'assistant', content: '', tool_calls: toolCalls }, done: false }]
    : Array.from({ length: count }, (_, index) => ({
        ...head,
        message: { role: 'assistant', content: piece(index) },
        done: false,
      }))
  lines.push({
    ...head,
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: reason,
    ...counts,
  })
  return writeStream(
    response,
    script(lines.length, (index) => `${JSON.stringify(lines[index])}\n`),
    faults,
    NDJSON_HEADERS,
  )
}

export function handleOllamaEmbed(response: ServerResponse, json: Json, model: string) {
  const inputs = Array.isArray(json.input) ? json.input.map(String) : [String(json.input ?? '')]
  const words = inputs.reduce((sum, text) => sum + text.split(/\s+/).filter(Boolean).length, 0)
  const embeddings = inputs.map((_, position) =>
    Array.from({ length: 4 }, (_, index) => (position + 1) / (index + 4)),
  )
  sendJson(
    response,
    200,
    JSON.stringify({
      model,
      embeddings,
      total_duration: 14143917,
      load_duration: 1019500,
      prompt_eval_count: Math.max(1, words),
    }),
  )
}
