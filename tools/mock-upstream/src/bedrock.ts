/**
 * AWS Bedrock's Converse and ConverseStream (`POST /model/{modelId}/converse[-stream]`): the SigV4
 * signature checked first (aws-signature.ts), then text or a tool call, as JSON or as AWS event
 * stream frames (encoded by AWS's own codec), with the same deterministic usage as the other
 * endpoints. Errors carry Bedrock's `x-amzn-errortype` header and `{"message"}` body.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
import type { ServerResponse } from 'node:http'
import { EventStreamCodec } from '@smithy/eventstream-codec'
import { fromUtf8, toUtf8 } from '@smithy/util-utf8'
import type { FaultPlan } from './faults.ts'
import { isRecord, type Json } from './json.ts'
import { drained } from './stream-writer.ts'
import { completionPieces, generatedText, piece } from './usage-rules.ts'

const TOOL_INPUT_PIECES = ['{"', 'mock', '":', 'true', '}']
const codec = new EventStreamCodec(toUtf8, fromUtf8)

/** Bedrock's error type and message for a status of the fault injection. */
const ERRORS: Record<number, [string, string]> = {
  400: ['ValidationException', 'Malformed input request, please reformat your input and try again.'],
  403: ['AccessDeniedException', "You don't have access to the model with the specified model ID."],
  404: [
    'ResourceNotFoundException',
    'Could not resolve the foundation model from the provided model identifier.',
  ],
  408: ['ModelTimeoutException', 'Model has timed out in processing the request.'],
  429: ['ThrottlingException', 'Too many requests, please wait before trying again.'],
  500: ['InternalServerException', 'The server encountered an internal error.'],
  503: ['ServiceUnavailableException', 'Bedrock is unable to process your request.'],
}

export function sendBedrockError(
  response: ServerResponse,
  status: number,
  errorType?: string,
  message?: string,
): void {
  const [type, text] = ERRORS[status] ?? ['InternalServerException', `Mock upstream error ${status}.`]
  const body = JSON.stringify({ message: message ?? text })
  response.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': `${errorType ?? type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    'x-amzn-requestid': 'mock-bedrock-request',
  })
  response.end(body)
}

function words(value: unknown): number {
  if (typeof value === 'string') return value.trim() === '' ? 0 : value.trim().split(/\s+/).length
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + words(item), 0)
  if (!isRecord(value)) return 0
  if (typeof value.text === 'string') return words(value.text)
  return words(value.content)
}

function usageOf(json: Json, faults: FaultPlan, output: number): Json {
  const prompt = faults.promptTokens ?? Math.max(1, words(json.messages) + words(json.system))
  const cacheRead = Math.min(faults.cachedTokens ?? 0, prompt)
  const cacheWrite = Math.min(faults.cacheWriteTokens ?? 0, prompt - cacheRead)
  const input = prompt - cacheRead - cacheWrite
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: prompt + output,
    ...(cacheRead > 0 ? { cacheReadInputTokens: cacheRead } : {}),
    ...(cacheWrite > 0 ? { cacheWriteInputTokens: cacheWrite } : {}),
  }
}

/** The tool to call: the forced one, else the first; none without tools. */
function toolName(json: Json): string | undefined {
  const config = isRecord(json.toolConfig) ? json.toolConfig : undefined
  const tools = Array.isArray(config?.tools) ? config.tools : []
  if (tools.length === 0) return undefined
  const forced =
    isRecord(config?.toolChoice) && isRecord(config.toolChoice.tool) ? config.toolChoice.tool.name : undefined
  if (typeof forced === 'string') return forced
  const first = tools[0] as { toolSpec?: { name?: unknown } }
  return typeof first.toolSpec?.name === 'string' ? first.toolSpec.name : 'mock_tool'
}

const frame = (eventType: string, payload: Json, messageType = 'event') =>
  Buffer.from(
    codec.encode({
      headers: {
        ':event-type': { type: 'string', value: eventType },
        ':content-type': { type: 'string', value: 'application/json' },
        ':message-type': { type: 'string', value: messageType },
      },
      body: fromUtf8(JSON.stringify(payload)),
    }),
  )

const exception = (exceptionType: string, message: string) =>
  Buffer.from(
    codec.encode({
      headers: {
        ':exception-type': { type: 'string', value: exceptionType },
        ':content-type': { type: 'string', value: 'application/json' },
        ':message-type': { type: 'string', value: 'exception' },
      },
      body: fromUtf8(JSON.stringify({ message })),
    }),
  )

function streamFrames(tool: string | undefined, pieces: number, stop: string, usage: Json): Buffer[] {
  const frames = [frame('messageStart', { role: 'assistant' })]
  if (tool) {
    frames.push(
      frame('contentBlockStart', {
        contentBlockIndex: 0,
        start: { toolUse: { toolUseId: 'tooluse_mock', name: tool } },
      }),
    )
    for (const input of TOOL_INPUT_PIECES)
      frames.push(frame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input } } }))
  } else {
    for (let index = 0; index < pieces; index++) {
      frames.push(frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: piece(index) } }))
    }
  }
  frames.push(frame('contentBlockStop', { contentBlockIndex: 0 }))
  frames.push(frame('messageStop', { stopReason: stop }))
  frames.push(frame('metadata', { usage, metrics: { latencyMs: 42 } }))
  return frames
}

async function writeFrames(response: ServerResponse, frames: Buffer[], faults: FaultPlan): Promise<void> {
  response.writeHead(200, {
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-requestid': 'mock-bedrock-request',
  })
  const cut = faults.cutAfterChunks
  const limit = cut === undefined ? frames.length : Math.min(cut, frames.length)
  for (let index = 0; index < limit && !response.destroyed; index++) {
    if (index > 0 && faults.chunkDelayMs)
      await new Promise((resolve) => setTimeout(resolve, faults.chunkDelayMs))
    if (!response.write(frames[index])) await drained(response)
  }
  if (response.destroyed) return
  if (cut !== undefined && cut < frames.length) {
    response.socket?.end()
    return
  }
  response.end()
}

const LLAMA = /(^|\.)meta\.llama/
/** Llama 3 before 3.1: no tool use on Converse, as Bedrock's table of model features says. */
const LLAMA_WITHOUT_TOOLS = /(^|\.)meta\.llama3-(8b|70b)-instruct/

/**
 * What Bedrock refuses for a Llama model: model fields it does not define (Claude's `top_k`,
 * `thinking`) and tools where the model has none.
 * https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html
 */
function llamaRefusal(json: Json, modelId: string): string | undefined {
  if (!LLAMA.test(modelId)) return undefined
  const extra = isRecord(json.additionalModelRequestFields)
    ? Object.keys(json.additionalModelRequestFields)
    : []
  if (extra.length > 0) {
    return `Malformed input request: #: extraneous key [${extra[0]}] is not permitted, please reformat your input and try again.`
  }
  if (LLAMA_WITHOUT_TOOLS.test(modelId) && json.toolConfig !== undefined) {
    return "This model doesn't support tool use."
  }
  return undefined
}

export function handleConverse(
  response: ServerResponse,
  json: Json,
  modelId: string,
  stream: boolean,
  faults: FaultPlan,
): Promise<void> | void {
  if (!Array.isArray(json.messages) || json.messages.length === 0) {
    return sendBedrockError(response, 400, 'ValidationException', 'The messages field is required.')
  }
  const refused = llamaRefusal(json, modelId)
  if (refused) return sendBedrockError(response, 400, 'ValidationException', refused)
  const tool = toolName(json)
  const inference = isRecord(json.inferenceConfig) ? json.inferenceConfig : {}
  const { pieces, finishReason } = completionPieces({ max_tokens: inference.maxTokens }, faults.chunks)
  const output = tool ? TOOL_INPUT_PIECES.length : pieces
  const stop = tool ? 'tool_use' : finishReason === 'length' ? 'max_tokens' : 'end_turn'
  const usage = usageOf(json, faults, output)
  if (stream) {
    if (faults.streamError) {
      const frames = [
        frame('messageStart', { role: 'assistant' }),
        exception('modelStreamErrorException', 'The model stream failed.'),
      ]
      return writeFrames(response, frames, {})
    }
    return writeFrames(response, streamFrames(tool, pieces, stop, usage), faults)
  }
  const content = tool
    ? [{ toolUse: { toolUseId: 'tooluse_mock', name: tool, input: JSON.parse(TOOL_INPUT_PIECES.join('')) } }]
    : [{ text: generatedText(pieces) }]
  const body = {
    output: { message: { role: 'assistant', content } },
    stopReason: stop,
    usage,
    metrics: { latencyMs: 42 },
  }
  response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': 'mock-bedrock-request' })
  response.end(JSON.stringify(body))
}

/** One event of a recorded ConverseStream transcript (an adaptor's fixture), or an exception. */
export type BedrockStreamEvent =
  | { readonly event: string; readonly payload: Json }
  | { readonly exception: string; readonly payload: { message: string } }

/** A transcript as the bytes Bedrock sends: AWS event stream frames, encoded by AWS's codec. */
export function encodeBedrockEvents(events: readonly BedrockStreamEvent[]): Buffer {
  return Buffer.concat(
    events.map((item) =>
      'event' in item ? frame(item.event, item.payload) : exception(item.exception, item.payload.message),
    ),
  )
}

/**
 * InvokeModel for Claude (`/model/{id}/invoke`, `/invoke-with-response-stream`): Anthropic's Messages
 * body with `anthropic_version: bedrock-2023-05-31` and no `model`; the answer is Anthropic's
 * message, the stream Anthropic's events, each base64-encoded in a `chunk` frame.
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html
 */
export function handleInvoke(
  response: ServerResponse,
  json: Json,
  model: string,
  stream: boolean,
  faults: FaultPlan,
): Promise<void> | void {
  if (
    json.anthropic_version !== 'bedrock-2023-05-31' ||
    'model' in json ||
    typeof json.max_tokens !== 'number'
  ) {
    return sendBedrockError(
      response,
      400,
      'ValidationException',
      'Malformed input request: #: required key [anthropic_version] not found or extraneous key [model] is not permitted, please reformat your input and try again.',
    )
  }
  const { pieces, finishReason } = completionPieces(json, faults.chunks)
  const stop = finishReason === 'length' ? 'max_tokens' : 'end_turn'
  const prompt = faults.promptTokens ?? Math.max(1, words(json.messages) + words(json.system))
  const usage = { input_tokens: prompt, output_tokens: pieces }
  if (!stream) {
    const message = {
      id: 'msg_bdrk_mock',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: generatedText(pieces) }],
      stop_reason: stop,
      stop_sequence: null,
      usage,
    }
    response.writeHead(200, {
      'content-type': 'application/json',
      'x-amzn-requestid': 'mock-bedrock-request',
    })
    response.end(JSON.stringify(message))
    return
  }
  const chunk = (event: Json) =>
    frame('chunk', { bytes: Buffer.from(JSON.stringify(event)).toString('base64') })
  const start = {
    id: 'msg_bdrk_mock',
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: prompt, output_tokens: 1 },
  }
  const frames = [
    chunk({ type: 'message_start', message: start }),
    chunk({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...Array.from({ length: pieces }, (_, index) =>
      chunk({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece(index) } }),
    ),
    chunk({ type: 'content_block_stop', index: 0 }),
    chunk({
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: pieces },
    }),
    chunk({
      type: 'message_stop',
      'amazon-bedrock-invocationMetrics': {
        inputTokenCount: prompt,
        outputTokenCount: pieces,
        invocationLatency: 42,
        firstByteLatency: 21,
      },
    }),
  ]
  return writeFrames(response, frames, faults)
}
