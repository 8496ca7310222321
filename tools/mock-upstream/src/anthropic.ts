/**
 * POST /v1/messages in Anthropic's wire format: the headers Anthropic requires checked, then text
 * or a tool call, JSON or its event stream, with the same deterministic usage as the OpenAI side.
 * https://docs.anthropic.com/en/api/messages
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { script } from './chat.ts'
import { sendJson } from './errors.ts'
import type { FaultPlan } from './faults.ts'
import { writeStream } from './stream-writer.ts'
import { completionPieces, generatedText, piece, promptTokensOf } from './usage-rules.ts'

const TOOL_INPUT_PIECES = ['{"', 'mock', '":', 'true', '}']

const ERROR_TYPES: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'Invalid request (mock upstream).'],
  401: ['authentication_error', 'invalid x-api-key'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'model: {model}'],
  429: ['rate_limit_error', 'This request would exceed the rate limit for your organization.'],
  500: ['api_error', 'Internal server error'],
  529: ['overloaded_error', 'Overloaded'],
}

export function anthropicErrorBody(status: number, model: string, message?: string): string {
  const [type, template] = ERROR_TYPES[status] ?? [
    status < 500 ? 'invalid_request_error' : 'api_error',
    `Mock upstream error ${status}.`,
  ]
  return JSON.stringify({
    type: 'error',
    error: { type, message: message ?? template.replace('{model}', model) },
    request_id: 'req_mock_anthropic',
  })
}

export function sendAnthropicError(
  response: ServerResponse,
  status: number,
  model: string,
  body?: unknown,
): void {
  const text =
    body === undefined
      ? anthropicErrorBody(status, model)
      : typeof body === 'string'
        ? body
        : JSON.stringify(body)
  if (status === 429) response.setHeader('retry-after', '1')
  sendJson(response, status, text)
}

/**
 * What Anthropic checks before anything else: the key in `x-api-key` (a Bearer header is not
 * read) and the `anthropic-version` header. Returns the refusal sent, or undefined.
 */
export function refuseAnthropicHeaders(
  response: ServerResponse,
  headers: IncomingHttpHeaders,
  apiKeys: ReadonlySet<string> | undefined,
): boolean {
  const key = headers['x-api-key']
  if (typeof key !== 'string' || key === '') {
    sendJson(response, 401, anthropicErrorBody(401, '', 'x-api-key header is required'))
    return true
  }
  if (apiKeys && !apiKeys.has(key)) {
    sendJson(response, 401, anthropicErrorBody(401, ''))
    return true
  }
  if (typeof headers['anthropic-version'] !== 'string') {
    sendJson(response, 400, anthropicErrorBody(400, '', 'anthropic-version: header is required'))
    return true
  }
  return false
}

/** The tool to call: the forced one, else the first; none without tools or with tool_choice none. */
function toolName(json: Record<string, unknown>): string | undefined {
  const tools = json.tools
  const choice = json.tool_choice as { type?: unknown; name?: unknown } | undefined
  if (!Array.isArray(tools) || tools.length === 0 || choice?.type === 'none') return undefined
  if (typeof choice?.name === 'string') return choice.name
  const first = tools[0] as { name?: unknown }
  return typeof first?.name === 'string' ? first.name : 'mock_tool'
}

interface Usage {
  input_tokens: number
  output_tokens: number
  cache_read_input_tokens: number
  cache_creation_input_tokens: number
}

function usageOf(json: Record<string, unknown>, faults: FaultPlan, output: number): Usage {
  const words = faults.promptTokens ?? promptTokensOf({ messages: json.messages }) + systemWords(json.system)
  const cacheRead = Math.min(faults.cachedTokens ?? 0, words)
  const cacheWrite = Math.min(faults.cacheWriteTokens ?? 0, words - cacheRead)
  // Anthropic's input_tokens leaves out what was read from or written to the cache.
  return {
    input_tokens: words - cacheRead - cacheWrite,
    output_tokens: output,
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
  }
}

function systemWords(system: unknown): number {
  if (system === undefined) return 0
  return promptTokensOf({ messages: [{ content: system }] })
}

const event = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

function messageStream(model: string, tool: string | undefined, pieces: number, stop: string, usage: Usage) {
  const deltas = tool ? TOOL_INPUT_PIECES.length : pieces
  const start = {
    id: 'msg_mock',
    type: 'message',
    role: 'assistant',
    content: [],
    model,
    stop_reason: null,
    stop_sequence: null,
    usage: { ...usage, output_tokens: 1 },
  }
  const block = tool
    ? { type: 'tool_use', id: 'toolu_mock', name: tool, input: {} }
    : { type: 'text', text: '' }
  return script(deltas + 6, (index) => {
    if (index === 0) return event('message_start', { message: start })
    if (index === 1) return event('content_block_start', { index: 0, content_block: block })
    if (index === 2) return event('ping', {})
    if (index < deltas + 3) {
      const at = index - 3
      const delta = tool
        ? { type: 'input_json_delta', partial_json: TOOL_INPUT_PIECES[at] }
        : { type: 'text_delta', text: piece(at) }
      return event('content_block_delta', { index: 0, delta })
    }
    if (index === deltas + 3) return event('content_block_stop', { index: 0 })
    if (index === deltas + 4)
      return event('message_delta', {
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      })
    return event('message_stop', {})
  })
}

const STREAM_ERROR = script(2, (index) =>
  index === 0
    ? event('message_start', {
        message: {
          id: 'msg_mock',
          type: 'message',
          role: 'assistant',
          content: [],
          model: 'mock',
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      })
    : event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }),
)

export function handleMessages(
  response: ServerResponse,
  json: Record<string, unknown>,
  model: string,
  faults: FaultPlan,
): Promise<void> | void {
  response.setHeader('request-id', response.getHeader('x-request-id') ?? 'req_mock')
  if (typeof json.max_tokens !== 'number')
    return sendJson(response, 400, anthropicErrorBody(400, model, 'max_tokens: Field required'))
  if (!Array.isArray(json.messages) || json.messages.length === 0) {
    return sendJson(response, 400, anthropicErrorBody(400, model, 'messages: Field required'))
  }
  const tool = toolName(json)
  const { pieces, finishReason } = completionPieces(json, faults.chunks)
  const output = tool ? TOOL_INPUT_PIECES.length : pieces
  const stop = tool ? 'tool_use' : finishReason === 'length' ? 'max_tokens' : 'end_turn'
  const usage = usageOf(json, faults, output)
  if (json.stream === true) {
    if (faults.streamError) return writeStream(response, STREAM_ERROR, faults)
    return writeStream(response, messageStream(model, tool, pieces, stop, usage), faults)
  }
  const content = tool
    ? [{ type: 'tool_use', id: 'toolu_mock', name: tool, input: JSON.parse(TOOL_INPUT_PIECES.join('')) }]
    : [{ type: 'text', text: generatedText(pieces) }]
  const body = {
    id: 'msg_mock',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage,
  }
  sendJson(response, 200, JSON.stringify(body))
}
