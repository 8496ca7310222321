/**
 * Builds the OpenAI chat completion an OpenAI client expects from what a provider of another
 * format answered, and the ParsedResponse the pipeline bills from.
 * https://platform.openai.com/docs/api-reference/chat/object
 */
import type { ParsedResponse, RelayRequest } from '../adaptor.ts'
import { countOf, type Json } from './json.ts'
import type { Usage } from './usage.ts'

export interface ToolCallAnswer {
  readonly id: string
  readonly name: string
  readonly arguments: string
}

export interface ChatAnswer {
  readonly id?: string
  readonly model?: string
  readonly text: string
  readonly reasoning?: string
  readonly toolCalls?: readonly ToolCallAnswer[]
  readonly finishReason: string
  readonly usage: Usage | undefined
}

/** OpenAI's usage object with its three counts (for providers that report no cached or reasoning part). */
export function openAiTokenCounts(usage: Usage): Json {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
  }
}

/** The answer as an OpenAI chat completion, with the text to count when the usage is missing. */
export function chatCompletionResponse(answer: ChatAnswer, request: RelayRequest): ParsedResponse {
  const tools = answer.toolCalls ?? []
  const message: Json = {
    role: 'assistant',
    content: answer.text === '' && tools.length > 0 ? null : answer.text,
    refusal: null,
  }
  if (answer.reasoning) message.reasoning_content = answer.reasoning
  if (tools.length > 0) {
    message.tool_calls = tools.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }))
  }
  const completion = {
    id: answer.id || `chatcmpl-${request.receivedAt ?? 0}`,
    object: 'chat.completion',
    created: request.receivedAt ?? 0,
    model: answer.model || request.mappedModel,
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finishReason }],
    ...(answer.usage ? { usage: openAiTokenCounts(answer.usage) } : {}),
  }
  const generated = [answer.text, answer.reasoning ?? '', ...tools.map((call) => call.name + call.arguments)]
  return {
    kind: 'response',
    body: Buffer.from(JSON.stringify(completion)),
    contentType: 'application/json',
    usage: answer.usage,
    completionText: answer.usage ? undefined : generated.join(''),
  }
}

/** Usage from prompt and completion counts (the total is their sum when the provider gives none). */
export function usageOf(prompt: unknown, completion: unknown, total?: unknown): Usage | undefined {
  const promptTokens = countOf(prompt)
  const completionTokens = countOf(completion)
  if (promptTokens === undefined && completionTokens === undefined) return undefined
  const sum = (promptTokens ?? 0) + (completionTokens ?? 0)
  return {
    promptTokens: promptTokens ?? 0,
    completionTokens: completionTokens ?? 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    totalTokens: countOf(total) ?? sum,
  }
}
