/**
 * Bedrock Converse answers read for billing and turned into OpenAI chat completions.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
 * https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { claudeUsage, openAiUsage } from '../anthropic/response.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { localError } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { bedrockHttpError } from './errors.ts'

/**
 * Usage of a Converse answer. As with Anthropic, `inputTokens` leaves out the tokens read from
 * and written to the prompt cache: the prompt is all three. Cache reads and writes are priced as
 * Bedrock prices Claude's (a tenth and 1.25 times the input price).
 */
export function bedrockUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined
  return claudeUsage(raw.inputTokens, raw.cacheReadInputTokens, raw.cacheWriteInputTokens, raw.outputTokens)
}

export { openAiUsage }

/** Converse's stopReason as OpenAI's finish_reason. */
export function finishReason(stopReason: unknown): string | null {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop'
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length'
    case 'tool_use':
      return 'tool_calls'
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter'
    default:
      return stopReason == null ? null : 'stop'
  }
}

/** The OpenAI chat message of the answer's content blocks; reasoning goes to reasoning_content. */
function chatMessage(content: unknown[]): { message: Json; generated: string } {
  let text = ''
  let reasoning = ''
  const toolCalls: Json[] = []
  for (const block of content) {
    if (!isRecord(block)) continue
    if (typeof block.text === 'string') text += block.text
    else if (isRecord(block.reasoningContent) && isRecord(block.reasoningContent.reasoningText)) {
      const part = block.reasoningContent.reasoningText.text
      if (typeof part === 'string') reasoning += part
    } else if (isRecord(block.toolUse)) {
      const use = block.toolUse
      toolCalls.push({
        id: use.toolUseId,
        type: 'function',
        function: { name: use.name, arguments: JSON.stringify(use.input ?? {}) },
      })
    }
  }
  const message: Json = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text }
  if (reasoning) message.reasoning_content = reasoning
  if (toolCalls.length > 0) message.tool_calls = toolCalls
  message.refusal = null
  const calls = toolCalls.map((call) => (call.function as { arguments: string }).arguments)
  return { message, generated: text + reasoning + calls.join('') }
}

const invalid = (message: string) =>
  localError(502, 'invalid_upstream_response', message, { retryable: true, type: 'upstream_error' })

/** A non-stream Converse answer as an OpenAI chat completion. */
export function parseBedrockResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  if (response.status < 200 || response.status >= 300) return bedrockHttpError(response)
  let json: unknown
  try {
    json = JSON.parse(response.body.toString('utf8'))
  } catch {
    return invalid('upstream returned invalid JSON')
  }
  if (!isRecord(json) || !isRecord(json.output)) return invalid('upstream returned no output in its answer')
  const output = isRecord(json.output.message) ? json.output.message : {}
  const content = Array.isArray(output.content) ? output.content : []
  const usage = bedrockUsage(json.usage)
  const { message, generated } = chatMessage(content)
  const requestId = response.headers['x-amzn-requestid']
  const completion = {
    id: `chatcmpl-${typeof requestId === 'string' ? requestId : 'bedrock'}`,
    object: 'chat.completion',
    created: request.receivedAt ?? 0,
    model: request.mappedModel,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(json.stopReason) ?? 'stop' }],
    ...(usage ? { usage: openAiUsage(usage) } : {}),
  }
  return {
    kind: 'response',
    body: Buffer.from(JSON.stringify(completion)),
    usage,
    completionText: usage ? undefined : generated,
  }
}
