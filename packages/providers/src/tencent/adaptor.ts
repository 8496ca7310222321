/**
 * Tencent Hunyuan channels (type 23): the Tencent Cloud API action ChatCompletions (version
 * 2023-09-01), POSTed to the base URL's `/` and signed with TC3-HMAC-SHA256 (sign.ts). The channel
 * key is `AppId|SecretId|SecretKey` as in one-api (the AppId is not needed to sign). The signature
 * covers the time, taken from the request's arrival (RelayRequest.receivedAt).
 * https://cloud.tencent.com/document/api/1729/105701
 */
import type { Adaptor, ChannelCredentials, RelayRequest, UpstreamError, UpstreamRequest } from '../adaptor.ts'
import { localError } from '../shared/upstream-error.ts'
import { hunyuanBody } from './request-body.ts'
import { parseHunyuanResponse } from './response.ts'
import { tc3Authorization } from './sign.ts'
import { HunyuanStream } from './stream.ts'

export const HUNYUAN_DEFAULT_BASE_URL = 'https://hunyuan.tencentcloudapi.com'
export const HUNYUAN_VERSION = '2023-09-01'
const CONTENT_TYPE = 'application/json'

/** The SecretId and SecretKey of an `AppId|SecretId|SecretKey` key. */
export function hunyuanCredentials(key: string): { secretId: string; secretKey: string } | undefined {
  const parts = key.split('|')
  if (parts.length !== 3 || !parts[1] || !parts[2]) return undefined
  return { secretId: parts[1], secretKey: parts[2] }
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  if (request.mode !== 'chat' || !request.json) {
    return localError(400, 'unsupported_relay_mode', `Tencent Hunyuan channels serve chat completions only`, {
      retryable: true,
      type: 'invalid_request_error',
    })
  }
  const credentials = hunyuanCredentials(channel.key)
  if (!credentials) {
    return localError(
      500,
      'invalid_channel_key',
      'the Tencent channel key must be AppId|SecretId|SecretKey',
      {
        retryable: true,
      },
    )
  }
  const url = new URL(`${(channel.baseUrl || HUNYUAN_DEFAULT_BASE_URL).replace(/\/+$/, '')}/`)
  const payload = JSON.stringify(
    hunyuanBody(request.json, request.mappedModel, request.stream, request.systemPrompt),
  )
  const timestamp = request.receivedAt ?? 0
  const action = 'ChatCompletions'
  const region = channel.config?.region
  return {
    kind: 'request',
    url: url.toString(),
    method: 'POST',
    headers: {
      'Content-Type': CONTENT_TYPE,
      Authorization: tc3Authorization({
        ...credentials,
        service: 'hunyuan',
        host: url.host,
        action,
        payload,
        timestamp,
        contentType: CONTENT_TYPE,
      }),
      'X-TC-Action': action,
      'X-TC-Version': HUNYUAN_VERSION,
      'X-TC-Timestamp': String(timestamp),
      ...(typeof region === 'string' && region !== '' ? { 'X-TC-Region': region } : {}),
    },
    body: payload,
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

export const hunyuanAdaptor: Adaptor = {
  name: 'tencent',
  buildRequest,
  parseResponse: parseHunyuanResponse,
  createStreamTransformer: (request) => new HunyuanStream(request),
}
