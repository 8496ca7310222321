/**
 * Clients of the Messages API (`/v1/messages`) on AWS Bedrock channels. For Claude models their
 * own request is relayed natively through InvokeModel: the client's body without `model` and
 * `stream`, with `anthropic_version: bedrock-2023-05-31`, to `/model/{id}/invoke` (or
 * `/invoke-with-response-stream`, whose event stream frames carry each Anthropic event base64-encoded
 * in a `chunk`); answers and events reach the client as Anthropic sends them. Other models go
 * through the Messages bridge around the Converse adaptor.
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html
 */
import type {
  Adaptor,
  ChannelCredentials,
  RelayRequest,
  StreamTransformer,
  UpstreamError,
  UpstreamRequest,
} from '../adaptor.ts'
import { anthropicNativeAdaptor } from '../anthropic/adaptor.ts'
import { AnthropicEventReader, MESSAGE_STOP_EVENT } from '../anthropic/native-stream.ts'
import { anthropicClientBridge } from '../anthropic-client/bridge.ts'
import { toAnthropicErrorBody } from '../anthropic-client/from-chat-response.ts'
import { localError } from '../shared/upstream-error.ts'
import { bedrockAdaptor } from './adaptor.ts'
import { awsCredentials } from './credentials.ts'
import { bedrockError, bedrockHttpError } from './errors.ts'
import { EventStreamDecoder } from './event-stream.ts'
import { bedrockModelId, isClaude } from './model-ids.ts'
import { signRequest } from './sigv4.ts'

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31'

const bridged = anthropicClientBridge(bedrockAdaptor)

const claudeId = (request: RelayRequest): string | undefined => {
  const id = bedrockModelId(request.mappedModel)
  return id && isClaude(id) ? id : undefined
}

function buildInvokeRequest(
  request: RelayRequest,
  channel: ChannelCredentials,
): UpstreamRequest | UpstreamError {
  const credentials = awsCredentials(channel)
  if ('kind' in credentials) return credentials
  const modelId = claudeId(request)!
  if (request.receivedAt === undefined)
    return localError(500, 'no_request_time', 'the request has no time to sign with')
  const { model: _model, stream: _stream, ...native } = request.native!.json
  const body = JSON.stringify({
    anthropic_version: BEDROCK_ANTHROPIC_VERSION,
    ...native,
    ...(request.systemPrompt ? { system: request.systemPrompt } : {}),
  })
  const operation = request.stream ? 'invoke-with-response-stream' : 'invoke'
  const base = (channel.baseUrl || `https://bedrock-runtime.${credentials.region}.amazonaws.com`).replace(
    /\/+$/,
    '',
  )
  const url = `${base}/model/${encodeURIComponent(modelId)}/${operation}`
  const accept = request.stream ? 'application/vnd.amazon.eventstream' : 'application/json'
  const headers = signRequest(
    {
      url,
      headers: { 'content-type': 'application/json', accept },
      body,
      service: 'bedrock',
      time: request.receivedAt,
    },
    credentials,
  )
  return { kind: 'request', url, method: 'POST', headers, body, bodyRewritten: true, dropUsageChunk: false }
}

/** InvokeModelWithResponseStream's frames as the Anthropic events they carry. */
class InvokeStream implements StreamTransformer {
  keepAlives = 0
  private readonly reader = new AnthropicEventReader()
  private readonly decoder = new EventStreamDecoder()
  private failure: UpstreamError | undefined
  private output = ''

  get usage() {
    return this.reader.usage
  }
  get completionText() {
    return this.reader.completionText
  }
  get completionTextLength() {
    return this.reader.completionTextLength
  }
  get upstreamCompleted() {
    return this.reader.stopped
  }
  get answered() {
    return this.reader.answered
  }
  get streamError() {
    return this.failure ?? this.reader.streamError
  }

  push(chunk: Buffer): string {
    if (this.failure || this.reader.stopped) return ''
    try {
      for (const message of this.decoder.push(chunk)) this.onMessage(message.headers, message.payload)
    } catch {
      this.fail(
        localError(502, 'invalid_upstream_stream', 'the upstream event stream is corrupt', {
          retryable: true,
        }),
      )
    }
    return this.take()
  }

  finish(complete = true): string {
    if (complete && !this.reader.stopped && !this.failure) {
      this.reader.stopped = true
      this.output += MESSAGE_STOP_EVENT
    }
    return this.take()
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private onMessage(headers: Record<string, string>, payload: Buffer): void {
    if (headers[':message-type'] === 'exception') {
      this.fail(bedrockError(headers[':exception-type'], 200, payload))
      return
    }
    if (headers[':event-type'] !== 'chunk') return
    const bytes = (JSON.parse(payload.toString('utf8')) as { bytes?: unknown }).bytes
    if (typeof bytes !== 'string') return
    const data = Buffer.from(bytes, 'base64').toString('utf8')
    const event = this.reader.read(data)
    if (!event) return
    this.output += `event: ${String(event.type)}\ndata: ${data.replaceAll('\n', '')}\n\n`
  }

  private fail(error: UpstreamError): void {
    this.failure = error
    this.output += `event: error\ndata: ${toAnthropicErrorBody(error.status, error)}\n\n`
  }
}

const claudeInvoke: Adaptor = {
  name: 'aws-bedrock',
  buildRequest: buildInvokeRequest,
  parseResponse: (response, request) =>
    response.status >= 200 && response.status < 300
      ? anthropicNativeAdaptor.parseResponse(response, request)
      : bedrockHttpError(response),
  createStreamTransformer: (): StreamTransformer => new InvokeStream(),
}

/** Claude models with the client's own request go natively; the rest through the bridge. */
const byModel = (request: RelayRequest): Adaptor =>
  request.native && claudeId(request) ? claudeInvoke : bridged

export const bedrockMessagesAdaptor: Adaptor = {
  name: 'aws-bedrock',
  remoteImages: (request) => byModel(request).remoteImages?.(request) ?? [],
  buildRequest: (request, channel) => byModel(request).buildRequest(request, channel),
  parseResponse: (response, request) => byModel(request).parseResponse(response, request),
  createStreamTransformer: (request, built) => byModel(request).createStreamTransformer(request, built),
}
