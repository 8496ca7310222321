/**
 * `/v1/responses` passed through to a channel that serves the Responses API itself (OpenAI, Azure
 * OpenAI, and OpenAI-format channels whose config sets `responses_api: true`): the client's request with the
 * channel's model (and its forced system prompt as `instructions`), the answer and its event stream
 * passed on as they came, the usage read from the Response (`response.completed` when streamed).
 * https://platform.openai.com/docs/api-reference/responses/create
 */
import type {
  Adaptor,
  ChannelCredentials,
  ParsedResponse,
  RelayRequest,
  StreamTransformer,
  UpstreamError,
  UpstreamRequest,
  UpstreamResponse,
} from '../adaptor.ts'
import { buildUpstreamUrl, ChannelTypeId, resolveBaseUrl } from '../openai-compatible/request-url.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { type SseEvent, SseParser } from '../shared/sse.ts'
import { localError, mapUpstreamError, nonStreamReply, readJsonObject } from '../shared/upstream-error.ts'
import { normaliseUsage, type Usage } from '../shared/usage.ts'

const TEXT_CAP = 1 << 20

/** Types whose upstream paths are not OpenAI's (providers' own chat paths). */
const OWN_PATH_TYPES = new Set<number>([
  ChannelTypeId.minimax,
  ChannelTypeId.doubao,
  ChannelTypeId.novita,
  ChannelTypeId.baiduV2,
  ChannelTypeId.aliBailian,
])

/** True when a channel of this type and config is sent Responses requests as they are. */
export function servesResponsesApi(
  type: number,
  config: Readonly<Record<string, unknown>> | undefined,
): boolean {
  if (type === ChannelTypeId.openAi || type === ChannelTypeId.azure) return true
  return config?.responses_api === true && !OWN_PATH_TYPES.has(type)
}

/**
 * Azure OpenAI serves the Responses API at `/openai/v1/responses` (its v1 API, no api-version),
 * the deployment named as the model; deployments are named after the model without dots, as for
 * chat. https://learn.microsoft.com/azure/ai-foundry/openai/how-to/responses
 */
function azureTarget(request: RelayRequest, channel: ChannelCredentials): { url: string; model: string } {
  return {
    url: `${resolveBaseUrl(channel)}/openai/v1/responses`,
    model: request.mappedModel.replaceAll('.', ''),
  }
}

function target(
  request: RelayRequest,
  channel: ChannelCredentials,
): { url: string; model: string } | UpstreamError {
  if (channel.type === ChannelTypeId.azure) return azureTarget(request, channel)
  const query = request.path.indexOf('?')
  const path = `/v1/responses${query === -1 ? '' : request.path.slice(query)}`
  const url = buildUpstreamUrl({ ...request, path }, channel)
  return typeof url === 'string' ? { url, model: request.mappedModel } : url
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  const native = request.native
  if (!native) return localError(500, 'missing_native_request', 'the Responses request was not kept', {})
  const aimed = target(request, channel)
  if ('kind' in aimed) return aimed
  const { url, model } = aimed
  const unchanged = native.json.model === model && !request.systemPrompt
  const body = unchanged
    ? native.body
    : JSON.stringify({
        ...native.json,
        model,
        ...(request.systemPrompt ? { instructions: request.systemPrompt } : {}),
      })
  const auth: Record<string, string> =
    channel.type === ChannelTypeId.azure
      ? { 'api-key': channel.key }
      : { Authorization: `Bearer ${channel.key}` }
  return {
    kind: 'request',
    url,
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: request.stream ? 'text/event-stream' : 'application/json',
      ...auth,
    },
    body,
    bodyRewritten: !unchanged,
    dropUsageChunk: false,
  }
}

/** The generated text of a Response's output, for a local count when it reports no usage. */
function outputText(output: unknown): string {
  if (!Array.isArray(output)) return ''
  let text = ''
  for (const item of output) {
    if (!isRecord(item)) continue
    if (typeof item.arguments === 'string') text += item.arguments
    if (!Array.isArray(item.content)) continue
    for (const part of item.content) if (isRecord(part) && typeof part.text === 'string') text += part.text
  }
  return text
}

function parseResponse(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  const { status, headers, body } = response
  if (status < 200 || status >= 300) return mapUpstreamError(status, body, headers)
  const read = readJsonObject(body, 'invalid_upstream_response')
  if (read.kind === 'error') return read
  const json = read.json
  if (isRecord(json.error)) return mapUpstreamError(status, body, headers)
  if (!Array.isArray(json.output)) {
    return localError(502, 'invalid_upstream_response', 'upstream returned no output in its answer', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  if (request.stream) {
    return nonStreamReply()
  }
  return {
    kind: 'response',
    body,
    usage: normaliseUsage(json.usage),
    completionText: outputText(json.output),
  }
}

/** The events that end a Response stream, each carrying the whole Response with its usage. */
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed'])
/** Events that only open the answer: until another comes, a failing stream may still fail over. */
const OPENING_EVENTS = new Set(['response.created', 'response.in_progress', 'response.queued', 'error'])

export class ResponsesPassthroughStream implements StreamTransformer {
  usage: Usage | undefined
  completionText = ''
  completionTextLength = 0
  upstreamCompleted = false
  answered = false
  keepAlives = 0
  streamError: UpstreamError | undefined
  private output = ''
  private readonly parser = new SseParser(
    (event) => this.onEvent(event),
    (comment) => {
      this.keepAlives += 1
      this.output += `:${comment}\n\n`
    },
  )

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.take()
  }

  /** The Responses API has no closing sentinel of its own: nothing is added at the end. */
  finish(): string {
    this.parser.end()
    return this.take()
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private onEvent(sse: SseEvent): void {
    let event: unknown
    try {
      event = JSON.parse(sse.data)
    } catch {
      return
    }
    if (!isRecord(event)) return
    const type = typeof event.type === 'string' ? event.type : (sse.event ?? 'message')
    this.read(type, event)
    this.output += `event: ${type}\ndata: ${sse.data.replaceAll('\n', '')}\n\n`
  }

  private read(type: string, event: Json): void {
    if (!OPENING_EVENTS.has(type)) this.answered = true
    if (type === 'error') this.streamError = mapUpstreamError(200, JSON.stringify({ error: event }))
    if (type === 'response.output_text.delta' || type === 'response.function_call_arguments.delta') {
      if (typeof event.delta === 'string') this.addText(event.delta)
    }
    if (FINAL_EVENTS.has(type) && isRecord(event.response)) {
      this.upstreamCompleted = true
      this.usage = normaliseUsage(event.response.usage) ?? this.usage
      if (type === 'response.failed' && !this.streamError && isRecord(event.response.error))
        this.streamError = mapUpstreamError(200, JSON.stringify({ error: event.response.error }))
    }
  }

  private addText(text: string): void {
    this.completionTextLength += text.length
    if (this.completionText.length < TEXT_CAP)
      this.completionText += text.slice(0, TEXT_CAP - this.completionText.length)
  }
}

export const responsesPassthroughAdaptor: Adaptor = {
  name: 'openai',
  buildRequest,
  parseResponse,
  createStreamTransformer: (): StreamTransformer => new ResponsesPassthroughStream(),
}
