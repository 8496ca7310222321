/**
 * The Response object of OpenAI's Responses API, built from a chat answer for a `/v1/responses`
 * client served by a channel that speaks chat completions.
 * https://platform.openai.com/docs/api-reference/responses/object
 */

import { isRecord, type Json } from '../shared/json.ts'
import type { Usage } from '../shared/usage.ts'

/** The Responses usage object: input and output tokens with their cached and reasoning parts. */
export function responsesUsage(usage: Usage | undefined): Json {
  const input = usage?.promptTokens ?? 0
  const output = usage?.completionTokens ?? 0
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: usage?.cachedTokens ?? 0,
      cache_write_tokens: usage?.cacheWriteTokens ?? 0,
    },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage?.reasoningTokens ?? 0 },
    total_tokens: usage?.totalTokens ?? input + output,
  }
}

/** The status and incomplete_details a chat finish_reason stands for. */
export function finishStatus(finish: unknown): { status: string; incomplete_details: Json | null } {
  if (finish === 'length')
    return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }
  if (finish === 'content_filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } }
  return { status: 'completed', incomplete_details: null }
}

/** The ids of a Response and of its output items, from the chat answer's id. */
export function responseId(chatId: unknown): string {
  const id = typeof chatId === 'string' && chatId !== '' ? chatId : 'chatcmpl'
  return id.startsWith('resp_') ? id : `resp_${id}`
}

/** The request's function tools as a Response lists them: strict and parameters always named. */
function echoedTools(tools: unknown): unknown[] {
  if (!Array.isArray(tools)) return []
  return tools.map((tool) =>
    isRecord(tool) && tool.type === 'function'
      ? { description: null, ...tool, parameters: tool.parameters ?? null, strict: tool.strict ?? null }
      : tool,
  )
}

/**
 * A Response with nothing generated yet: the request's settings echoed as OpenAI echoes them,
 * status in_progress. `native` is the client's Responses request.
 */
export function responseShell(id: string, createdAt: number, model: string, native: Json): Json {
  const pick = <T>(field: string, fallback: T): unknown =>
    native[field] === undefined ? fallback : native[field]
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: pick('instructions', null),
    max_output_tokens: pick('max_output_tokens', null),
    model,
    output: [],
    parallel_tool_calls: pick('parallel_tool_calls', true),
    previous_response_id: null,
    reasoning: isRecord(native.reasoning) ? { effort: native.reasoning.effort ?? null, summary: null } : null,
    store: false,
    temperature: pick('temperature', 1),
    text: isRecord(native.text) ? native.text : { format: { type: 'text' } },
    tool_choice: pick('tool_choice', 'auto'),
    tools: echoedTools(native.tools),
    top_p: pick('top_p', 1),
    truncation: 'disabled',
    ...(typeof native.user === 'string' ? { user: native.user } : {}),
    metadata: isRecord(native.metadata) ? native.metadata : {},
  }
}

export const textPart = (text: string): Json => ({ type: 'output_text', text, annotations: [], logprobs: [] })

export const messageItem = (id: string, content: Json[], status: string): Json => ({
  id,
  type: 'message',
  status,
  role: 'assistant',
  content,
})

export const reasoningItem = (id: string, text: string): Json => ({
  id,
  type: 'reasoning',
  summary: [],
  content: text === '' ? [] : [{ type: 'reasoning_text', text }],
})

export const functionCallItem = (
  id: string,
  callId: string,
  name: string,
  args: string,
  status: string,
): Json => ({
  id,
  type: 'function_call',
  status,
  call_id: callId,
  name,
  arguments: args,
})

/** The output items of a chat message: reasoning, the text (or refusal), then each tool call. */
function outputItems(message: Json, baseId: string): Json[] {
  const items: Json[] = []
  const reasoning = message.reasoning_content ?? message.reasoning
  if (typeof reasoning === 'string' && reasoning !== '') items.push(reasoningItem(`rs_${baseId}`, reasoning))
  const content: Json[] = []
  if (typeof message.content === 'string' && message.content !== '') content.push(textPart(message.content))
  if (typeof message.refusal === 'string' && message.refusal !== '')
    content.push({ type: 'refusal', refusal: message.refusal })
  if (content.length > 0) items.push(messageItem(`msg_${baseId}`, content, 'completed'))
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : []
  calls.forEach((call, index) => {
    if (!isRecord(call) || !isRecord(call.function)) return
    const callId = typeof call.id === 'string' ? call.id : `call_${baseId}_${index}`
    const name = typeof call.function.name === 'string' ? call.function.name : ''
    const args = typeof call.function.arguments === 'string' ? call.function.arguments : '{}'
    items.push(functionCallItem(`fc_${baseId}_${index}`, callId, name, args, 'completed'))
  })
  return items
}

/** A whole chat completion as a Response. */
export function chatToResponse(
  completion: Json,
  usage: Usage | undefined,
  context: { model: string; receivedAt: number; native: Json },
): Json {
  const choice =
    Array.isArray(completion.choices) && isRecord(completion.choices[0]) ? completion.choices[0] : {}
  const message = isRecord(choice.message) ? choice.message : {}
  const id = responseId(completion.id)
  const created = typeof completion.created === 'number' ? completion.created : context.receivedAt
  const model = typeof completion.model === 'string' ? completion.model : context.model
  const finish = finishStatus(choice.finish_reason)
  return {
    ...responseShell(id, created, model, context.native),
    ...finish,
    completed_at: finish.status === 'completed' ? context.receivedAt : null,
    output: outputItems(message, id.slice(5)),
    usage: responsesUsage(usage),
  }
}
