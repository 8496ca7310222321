/**
 * OpenAI chat answers (whole, and errors) in the shapes of Anthropic's Messages API, for clients
 * of `/v1/messages` served by channels that speak OpenAI's format.
 * https://docs.anthropic.com/en/api/messages
 * https://docs.anthropic.com/en/api/errors
 */

import { isRecord, type Json } from '../shared/json.ts'
import type { ErrorFields } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'

/** OpenAI's finish_reason as Anthropic's stop_reason. */
export function stopReason(finish: unknown): string {
  switch (finish) {
    case 'length':
      return 'max_tokens'
    case 'tool_calls':
    case 'function_call':
      return 'tool_use'
    case 'content_filter':
      return 'refusal'
    default:
      return 'end_turn'
  }
}

/** Anthropic's usage object: input_tokens leaves out the tokens read from the prompt cache. */
export function messagesUsage(usage: Usage | undefined): Json {
  if (!usage) return { input_tokens: 0, output_tokens: 0 }
  return {
    input_tokens: Math.max(0, usage.promptTokens - usage.cachedTokens - (usage.cacheWriteTokens ?? 0)),
    output_tokens: usage.completionTokens,
    cache_read_input_tokens: usage.cachedTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
  }
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return {}
  try {
    return JSON.parse(value)
  } catch {
    return {}
  }
}

/** The content blocks of an OpenAI chat message. */
function contentBlocks(message: Json): Json[] {
  const blocks: Json[] = []
  const reasoning = message.reasoning_content ?? message.reasoning
  if (typeof reasoning === 'string' && reasoning !== '')
    blocks.push({ type: 'thinking', thinking: reasoning, signature: '' })
  if (typeof message.content === 'string' && message.content !== '')
    blocks.push({ type: 'text', text: message.content })
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : []
  for (const call of calls) {
    if (!isRecord(call) || !isRecord(call.function)) continue
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseArguments(call.function.arguments),
    })
  }
  return blocks
}

/** An OpenAI chat completion as an Anthropic message. */
export function chatToMessage(completion: Json, usage: Usage | undefined, model: string): Json {
  const choice =
    Array.isArray(completion.choices) && isRecord(completion.choices[0]) ? completion.choices[0] : {}
  const message = isRecord(choice.message) ? choice.message : {}
  const id = typeof completion.id === 'string' ? completion.id : 'chatcmpl'
  return {
    id: id.startsWith('msg_') ? id : `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model: typeof completion.model === 'string' ? completion.model : model,
    content: contentBlocks(message),
    stop_reason: stopReason(choice.finish_reason),
    stop_sequence: null,
    usage: messagesUsage(usage),
  }
}

/** Anthropic's error type for an HTTP status. */
export function anthropicErrorType(status: number): string {
  if (status === 400) return 'invalid_request_error'
  if (status === 401) return 'authentication_error'
  if (status === 402) return 'billing_error'
  if (status === 403) return 'permission_error'
  if (status === 404) return 'not_found_error'
  if (status === 413) return 'request_too_large'
  if (status === 429) return 'rate_limit_error'
  if (status === 504) return 'timeout_error'
  if (status === 529 || status === 503) return 'overloaded_error'
  return status < 500 ? 'invalid_request_error' : 'api_error'
}

/** `{"type":"error","error":{"type","message"}}`, the body of every Messages API error. */
export function toAnthropicErrorBody(
  status: number,
  error: Pick<ErrorFields, 'message'>,
  messageSuffix = '',
): string {
  return JSON.stringify({
    type: 'error',
    error: { type: anthropicErrorType(status), message: error.message + messageSuffix },
  })
}
