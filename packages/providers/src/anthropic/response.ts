/**
 * Anthropic Messages answers read for billing and turned into OpenAI chat completions.
 * https://docs.anthropic.com/en/api/messages
 * https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { countOrZero, isRecord, type Json } from '../shared/json.ts'
import { localError, mapUpstreamError, readJsonObject } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'

/** Anthropic's prices of prompt-cache reads and (five-minute) writes relative to ordinary input. */
export const CACHE_READ_RATIO = 0.1
export const CACHE_WRITE_RATIO = 1.25

/**
 * Usage of an Anthropic answer. Anthropic's `input_tokens` leaves out the tokens read from and
 * written to the prompt cache: the prompt is all three.
 */
export function anthropicUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined
  const { input_tokens, cache_read_input_tokens, cache_creation_input_tokens, output_tokens } = raw
  return claudeUsage(input_tokens, cache_read_input_tokens, cache_creation_input_tokens, output_tokens)
}

/**
 * Claude's usage wherever it is served (Anthropic, Bedrock): its prompt is the uncached input and
 * the tokens read from and written to the cache, the reads and writes priced apart.
 */
export function claudeUsage(
  input: unknown,
  cacheRead: unknown,
  cacheWrite: unknown,
  output: unknown,
): Usage | undefined {
  const read = countOrZero(cacheRead)
  const written = countOrZero(cacheWrite)
  const completionTokens = countOrZero(output)
  const promptTokens = countOrZero(input) + read + written
  if (promptTokens + completionTokens === 0) return undefined
  return {
    promptTokens,
    completionTokens,
    cachedTokens: read,
    reasoningTokens: 0,
    totalTokens: promptTokens + completionTokens,
    cacheWriteTokens: written,
    cacheReadRatio: CACHE_READ_RATIO,
    cacheWriteRatio: CACHE_WRITE_RATIO,
  }
}

/** OpenAI's usage object for an Anthropic usage (the cache writes kept under Anthropic's name). */
export function openAiUsage(usage: Usage): Json {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens },
    ...(usage.cacheWriteTokens ? { cache_creation_input_tokens: usage.cacheWriteTokens } : {}),
  }
}

/** Anthropic's stop_reason as OpenAI's finish_reason. */
export function finishReason(stopReason: unknown): string | null {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop'
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length'
    case 'tool_use':
      return 'tool_calls'
    case 'refusal':
      return 'content_filter'
    default:
      return stopReason == null ? null : 'stop'
  }
}

/** The OpenAI chat message of an Anthropic answer's content blocks; thinking goes to reasoning_content. */
function chatMessage(content: unknown[]): Json {
  let text = ''
  let reasoning = ''
  const toolCalls: Json[] = []
  for (const block of content) {
    if (!isRecord(block)) continue
    if (block.type === 'text' && typeof block.text === 'string') text += block.text
    else if (block.type === 'thinking' && typeof block.thinking === 'string') reasoning += block.thinking
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      })
    }
  }
  const message: Json = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text }
  if (reasoning) message.reasoning_content = reasoning
  if (toolCalls.length > 0) message.tool_calls = toolCalls
  message.refusal = null
  return message
}

/** Every generated text of an answer, for a local count. */
function generatedText(message: Json): string {
  return [message.content, message.reasoning_content]
    .concat(
      Array.isArray(message.tool_calls)
        ? message.tool_calls.map((call) => (call as { function: { arguments: string } }).function.arguments)
        : [],
    )
    .filter((value): value is string => typeof value === 'string')
    .join('')
}

/** The JSON of a successful Anthropic answer, or the error it is. */
export function parseAnthropicJson(response: UpstreamResponse): { kind: 'json'; json: Json } | UpstreamError {
  const { status, headers, body } = response
  if (status < 200 || status >= 300) return mapUpstreamError(status, body, headers)
  const read = readJsonObject(body)
  if (read.kind === 'error') return read
  const json = read.json
  if (json.type === 'error' || isRecord(json.error)) return mapUpstreamError(status, body, headers)
  if (!Array.isArray(json.content)) {
    return localError(502, 'invalid_upstream_response', 'upstream returned no content in its answer', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  return { kind: 'json', json }
}

/** A non-stream Anthropic answer as an OpenAI chat completion. */
export function parseAnthropicResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const parsed = parseAnthropicJson(response)
  if (parsed.kind === 'error') return parsed
  const { json } = parsed
  const usage = anthropicUsage(json.usage)
  const message = chatMessage(json.content as unknown[])
  const completion = {
    id: typeof json.id === 'string' ? json.id : 'msg',
    object: 'chat.completion',
    created: request.receivedAt ?? 0,
    model: typeof json.model === 'string' ? json.model : request.mappedModel,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(json.stop_reason) ?? 'stop' }],
    ...(usage ? { usage: openAiUsage(usage) } : {}),
  }
  return {
    kind: 'response',
    body: Buffer.from(JSON.stringify(completion)),
    usage,
    completionText: usage ? undefined : generatedText(message),
  }
}
