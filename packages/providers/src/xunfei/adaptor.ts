/**
 * Xunfei Spark v1 channels (type 18): chat over Spark's WebSocket API. The adaptor signs the URL
 * (signed-url.ts), picks the version and domain (versions.ts), builds the first frame and reads
 * the answer frames (frames.ts); the pipeline's WebSocket transport carries them. Key
 * `APPID|APISecret|APIKey`.
 * https://www.xfyun.cn/doc/spark/Web.html
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
import { chatCompletionResponse } from '../shared/chat-completion.ts'
import { localError, mapUpstreamError } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { isLastFrame, readFrame, requestFrame } from './frames.ts'
import { type SparkFunctionCall, toolCallId } from './functions.ts'
import { parseSparkKey, signedSparkUrl } from './signed-url.ts'
import { SparkToOpenAiStream } from './stream.ts'
import { sparkDomain, sparkPath, sparkVersion } from './versions.ts'

export const SPARK_DEFAULT_BASE_URL = 'wss://spark-api.xf-yun.com'

/** The socket's base: the channel's base URL (http(s) read as ws(s)), else Xunfei's. */
const socketBase = (channel: ChannelCredentials): string =>
  (channel.baseUrl || SPARK_DEFAULT_BASE_URL).replace(/^http(s?):\/\//, 'ws$1://').replace(/\/+$/, '')

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  if (request.mode !== 'chat' || !request.json) {
    return localError(400, 'unsupported_endpoint', 'Xunfei Spark channels serve chat completions only', {
      type: 'invalid_request_error',
    })
  }
  const key = parseSparkKey(channel.key)
  if (!key) {
    return localError(500, 'invalid_channel_key', 'the channel key must be APPID|APISecret|APIKey', {
      retryable: true,
      type: 'one_api_error',
    })
  }
  const version = sparkVersion(request.mappedModel, channel)
  const url = signedSparkUrl(socketBase(channel), sparkPath(version), key, request.receivedAt ?? 0)
  return {
    kind: 'request',
    url,
    method: 'POST',
    headers: {},
    body: JSON.stringify(requestFrame(request, key.appId, sparkDomain(version))),
    bodyRewritten: true,
    dropUsageChunk: false,
    webSocket: { isLast: isLastFrame },
  }
}

/** The gathered frames (one per line) as one OpenAI chat completion; a refused handshake as its error. */
function parseResponse(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  if (response.status < 200 || response.status >= 300)
    return mapUpstreamError(response.status, response.body, response.headers)
  let content = ''
  let usage: Usage | undefined
  let id = 'chatcmpl-spark'
  const calls: SparkFunctionCall[] = []
  for (const line of response.body.toString('utf8').split('\n')) {
    const frame = readFrame(line)
    if (!frame) continue
    if (frame.error) return frame.error
    content += frame.content
    calls.push(...frame.functionCalls)
    if (frame.usage) usage = frame.usage
    if (frame.sid) id = frame.sid
  }
  if (content === '' && calls.length === 0 && !usage) {
    return localError(502, 'xunfei_empty_response_detected', 'the upstream answered nothing', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  const toolCalls = calls.map((call, index) => ({ id: toolCallId(id, index), ...call }))
  const finishReason = calls.length > 0 ? 'tool_calls' : 'stop'
  return chatCompletionResponse({ id, text: content, toolCalls, finishReason, usage }, request)
}

export const xunfeiAdaptor: Adaptor = {
  name: 'xunfei',
  buildRequest,
  parseResponse,
  createStreamTransformer: (request): StreamTransformer => new SparkToOpenAiStream(request),
}
