/**
 * POST /v1/chat/completions in OpenAI's wire format: text or a tool call, JSON or SSE.
 * https://platform.openai.com/docs/api-reference/chat/object
 * https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
import type { ServerResponse } from 'node:http'
import { sendJson } from './errors.ts'
import type { FaultPlan } from './faults.ts'
import { type StreamScript, writeStream } from './stream-writer.ts'
import { completionPieces, generatedText, piece, promptTokensOf } from './usage-rules.ts'

export const CREATED = Math.floor(Date.now() / 1000)
const TOOL_ARGUMENT_PIECES = ['{"', 'mock', '":', 'true', '}']
const CACHE_LIMIT = 500
/** Streams up to this many events are built once and cached whole. */
const JOIN_LIMIT = 200
const cache = new Map<string, string | StreamScript>()

function remember<T extends string | StreamScript>(key: string, build: () => T): T {
  const cached = cache.get(key)
  if (cached !== undefined) return cached as T
  const value = build()
  if (cache.size >= CACHE_LIMIT) cache.clear()
  cache.set(key, value)
  return value
}

export function usageObject(promptTokens: number, completionTokens: number, cachedTokens = 0) {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: Math.min(cachedTokens, promptTokens), audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  }
}

/** The tool to call, or undefined when the request has no tools or forbids calling them. */
function toolName(json: Record<string, unknown>): string | undefined {
  const tools = json.tools
  if (!Array.isArray(tools) || tools.length === 0 || json.tool_choice === 'none') return undefined
  const choice = json.tool_choice as { function?: { name?: unknown } } | undefined
  if (typeof choice?.function?.name === 'string') return choice.function.name
  const first = tools[0] as { function?: { name?: unknown } }
  return typeof first?.function?.name === 'string' ? first.function.name : 'mock_tool'
}

/** Assembles a stream from its events; small ones are joined once. */
export function script(length: number, event: (index: number) => string): StreamScript {
  const built: StreamScript = { length, event }
  if (length <= JOIN_LIMIT) {
    let joined = ''
    for (let index = 0; index < length; index += 1) joined += event(index)
    built.joined = joined
  }
  return built
}

function chatStream(
  model: string,
  tool: string | undefined,
  pieces: number,
  finish: string,
  usage: unknown,
): StreamScript {
  const withUsage = usage !== undefined
  const head = `data: {"id":"chatcmpl-mock","object":"chat.completion.chunk","created":${CREATED},"model":${JSON.stringify(model)},"system_fingerprint":"fp_mock","choices":[{"index":0,"delta":`
  const tail = `,"logprobs":null,"finish_reason":null}]${withUsage ? ',"usage":null' : ''}}\n\n`
  const contentCount = tool ? TOOL_ARGUMENT_PIECES.length : pieces
  const first = tool
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [
          { index: 0, id: 'call_mock', type: 'function', function: { name: tool, arguments: '' } },
        ],
        refusal: null,
      }
    : { role: 'assistant', content: '', refusal: null }
  const finishEvent = `${head}{},"logprobs":null,"finish_reason":${JSON.stringify(tool ? 'tool_calls' : finish)}}]${withUsage ? ',"usage":null' : ''}}\n\n`
  const usageEvent = `data: {"id":"chatcmpl-mock","object":"chat.completion.chunk","created":${CREATED},"model":${JSON.stringify(model)},"system_fingerprint":"fp_mock","choices":[],"usage":${JSON.stringify(usage)}}\n\n`
  const length = contentCount + 3 + (withUsage ? 1 : 0)
  return script(length, (index) => {
    if (index === 0) return head + JSON.stringify(first) + tail
    if (index <= contentCount) {
      const delta = tool
        ? { tool_calls: [{ index: 0, function: { arguments: TOOL_ARGUMENT_PIECES[index - 1] } }] }
        : { content: piece(index - 1) }
      return head + JSON.stringify(delta) + tail
    }
    if (index === contentCount + 1) return finishEvent
    if (withUsage && index === contentCount + 2) return usageEvent
    return 'data: [DONE]\n\n'
  })
}

function chatBody(
  model: string,
  tool: string | undefined,
  pieces: number,
  finish: string,
  usage: unknown,
): string {
  const message = tool
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_mock',
            type: 'function',
            function: { name: tool, arguments: TOOL_ARGUMENT_PIECES.join('') },
          },
        ],
        refusal: null,
        annotations: [],
      }
    : { role: 'assistant', content: generatedText(pieces), refusal: null, annotations: [] }
  return JSON.stringify({
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: tool ? 'tool_calls' : finish }],
    ...(usage === undefined ? {} : { usage }),
    service_tier: 'default',
    system_fingerprint: 'fp_mock',
  })
}

/** A stream that fails after its headers: one error event in OpenAI's shape, then [DONE]. */
const STREAM_ERROR = script(2, (index) =>
  index === 0
    ? `data: ${JSON.stringify({
        error: {
          message: 'The server had an error while processing your request. Sorry about that!',
          type: 'server_error',
          param: null,
          code: null,
        },
      })}\n\n`
    : 'data: [DONE]\n\n',
)

export function handleChat(
  response: ServerResponse,
  json: Record<string, unknown>,
  model: string,
  faults: FaultPlan,
): Promise<void> | void {
  const tool = toolName(json)
  const { pieces, finishReason } = completionPieces(json, faults.chunks)
  const completionTokens = tool ? TOOL_ARGUMENT_PIECES.length : pieces
  const promptTokens = faults.promptTokens ?? promptTokensOf(json)
  const stream = json.stream === true
  const options = json.stream_options as { include_usage?: unknown } | undefined
  const wantsUsage = !faults.noUsage && (!stream || options?.include_usage === true)
  const cachedTokens = faults.cachedTokens ?? 0
  const usage = wantsUsage ? usageObject(promptTokens, completionTokens, cachedTokens) : undefined
  const usageKey = wantsUsage ? `${promptTokens}/${cachedTokens}` : '-'
  const key = `chat|${stream}|${model}|${tool}|${pieces}|${finishReason}|${usageKey}`
  if (!stream) {
    sendJson(
      response,
      200,
      remember(key, () => chatBody(model, tool, pieces, finishReason, usage)),
    )
    return
  }
  if (faults.streamError) return writeStream(response, STREAM_ERROR, faults)
  const events = faults.events
  if (events) {
    const last = events.length
    return writeStream(
      response,
      script(last + 1, (index) =>
        index < last ? `data: ${JSON.stringify(events[index])}\n\n` : 'data: [DONE]\n\n',
      ),
      faults,
    )
  }
  const build = () => chatStream(model, tool, pieces, finishReason, usage)
  const errorAfter = faults.streamErrorAfter
  if (errorAfter !== undefined) {
    const answer = build()
    const first = Math.min(errorAfter, answer.length)
    const failing = script(first + 2, (index) =>
      index < first ? answer.event(index) : STREAM_ERROR.event(index - first),
    )
    return writeStream(response, failing, faults)
  }
  return writeStream(response, pieces <= JOIN_LIMIT ? remember(key, build) : build(), faults)
}

export { remember }
