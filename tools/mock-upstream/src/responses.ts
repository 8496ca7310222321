/**
 * POST /v1/responses in OpenAI's Responses API format: text or a function call, JSON or its event
 * stream (response.created ... response.completed, each event with its sequence_number), with the
 * same deterministic usage as chat completions (input words, 5 pieces) reported as input_tokens and
 * output_tokens, and `cached-tokens` as input_tokens_details.cached_tokens.
 * https://platform.openai.com/docs/api-reference/responses/object
 * https://platform.openai.com/docs/api-reference/responses-streaming
 */
import type { ServerResponse } from 'node:http'
import { CREATED, script } from './chat.ts'
import { sendJson } from './errors.ts'
import type { FaultPlan } from './faults.ts'
import type { Json } from './json.ts'
import { writeStream } from './stream-writer.ts'
import { completionPieces, generatedText, piece, promptTokensOf } from './usage-rules.ts'

const ARGUMENT_PIECES = ['{"', 'mock', '":', 'true', '}']
const MESSAGE_ID = 'msg_mock'
const CALL_ITEM_ID = 'fc_mock'

function functionName(json: Json): string | undefined {
  const tools = Array.isArray(json.tools) ? (json.tools as Json[]) : []
  const fn = tools.find((tool) => tool?.type === 'function' && typeof tool.name === 'string')
  if (!fn || json.tool_choice === 'none') return undefined
  return fn.name as string
}

const textPart = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] })
const messageItem = (text: string | undefined, status: string) => ({
  id: MESSAGE_ID,
  type: 'message',
  status,
  role: 'assistant',
  content: text === undefined ? [] : [textPart(text)],
})
const callItem = (name: string, args: string, status: string) => ({
  id: CALL_ITEM_ID,
  type: 'function_call',
  status,
  call_id: 'call_mock',
  name,
  arguments: args,
})

function usageOf(input: number, output: number, cached: number) {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: Math.min(cached, input), cache_write_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  }
}

function responseObject(json: Json, model: string, status: string, output: unknown[], usage: unknown): Json {
  return {
    id: 'resp_mock',
    object: 'response',
    created_at: CREATED,
    status,
    completed_at: status === 'completed' ? CREATED : null,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: json.instructions ?? null,
    max_output_tokens: json.max_output_tokens ?? null,
    model,
    output,
    parallel_tool_calls: json.parallel_tool_calls ?? true,
    previous_response_id: json.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: json.store ?? true,
    temperature: json.temperature ?? 1,
    text: json.text ?? { format: { type: 'text' } },
    tool_choice: json.tool_choice ?? 'auto',
    tools: json.tools ?? [],
    top_p: json.top_p ?? 1,
    truncation: 'disabled',
    ...(usage === null ? {} : { usage }),
    metadata: json.metadata ?? {},
  }
}

/** The event stream of a text answer or a function call, as OpenAI sends it. */
function events(
  json: Json,
  model: string,
  name: string | undefined,
  pieces: number,
  status: string,
  usage: unknown,
) {
  const list: Json[] = []
  const shell = responseObject(json, model, 'in_progress', [], null)
  list.push({ type: 'response.created', response: shell }, { type: 'response.in_progress', response: shell })
  let done: Json
  if (name) {
    list.push({
      type: 'response.output_item.added',
      output_index: 0,
      item: callItem(name, '', 'in_progress'),
    })
    for (const delta of ARGUMENT_PIECES)
      list.push({
        type: 'response.function_call_arguments.delta',
        item_id: CALL_ITEM_ID,
        output_index: 0,
        delta,
      })
    const args = ARGUMENT_PIECES.join('')
    list.push({
      type: 'response.function_call_arguments.done',
      item_id: CALL_ITEM_ID,
      output_index: 0,
      name,
      arguments: args,
    })
    done = callItem(name, args, 'completed')
  } else {
    const at = { item_id: MESSAGE_ID, output_index: 0, content_index: 0 }
    list.push({
      type: 'response.output_item.added',
      output_index: 0,
      item: messageItem(undefined, 'in_progress'),
    })
    list.push({ type: 'response.content_part.added', ...at, part: textPart('') })
    for (let index = 0; index < pieces; index += 1)
      list.push({ type: 'response.output_text.delta', ...at, delta: piece(index), logprobs: [] })
    const text = generatedText(pieces)
    list.push({ type: 'response.output_text.done', ...at, text, logprobs: [] })
    list.push({ type: 'response.content_part.done', ...at, part: textPart(text) })
    done = messageItem(text, status === 'completed' ? 'completed' : 'incomplete')
  }
  list.push({ type: 'response.output_item.done', output_index: 0, item: done })
  list.push({ type: `response.${status}`, response: responseObject(json, model, status, [done], usage) })
  return script(list.length, (index) => {
    const event = { ...list[index], sequence_number: index }
    return `event: ${String(list[index]!.type)}\ndata: ${JSON.stringify(event)}\n\n`
  })
}

export function handleResponses(response: ServerResponse, json: Json, model: string, faults: FaultPlan) {
  const name = functionName(json)
  const { pieces, finishReason } = completionPieces(json, faults.chunks)
  const status = !name && finishReason === 'length' ? 'incomplete' : 'completed'
  const outputTokens = name ? ARGUMENT_PIECES.length : pieces
  const inputTokens = faults.promptTokens ?? promptTokensOf(json)
  const usage = faults.noUsage ? null : usageOf(inputTokens, outputTokens, faults.cachedTokens ?? 0)
  if (json.stream === true)
    return writeStream(response, events(json, model, name, pieces, status, usage), faults)
  const output = name
    ? [callItem(name, ARGUMENT_PIECES.join(''), 'completed')]
    : [messageItem(generatedText(pieces), status === 'completed' ? 'completed' : 'incomplete')]
  sendJson(response, 200, JSON.stringify(responseObject(json, model, status, output, usage)))
}
