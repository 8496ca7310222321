/**
 * Baidu Qianfan v1 channels (type 15, Wenxin workshop): the channel key `APIKey|SecretKey` is
 * exchanged for an access token (the pipeline makes the exchange and caches the token, see
 * Adaptor.credentialExchange), which every call carries as `?access_token=`. Chat and embeddings
 * go to `/rpc/2.0/ai_custom/v1/wenxinworkshop/{chat|embeddings}/{endpoint}` (endpoints.ts).
 * https://cloud.baidu.com/doc/WENXINWORKSHOP/s/Ilkkrb0i5 (access token)
 * https://cloud.baidu.com/doc/WENXINWORKSHOP/s/jlil56u11 (chat)
 */
import type {
  Adaptor,
  ChannelCredentials,
  CredentialExchange,
  RelayRequest,
  UpstreamError,
  UpstreamRequest,
} from '../adaptor.ts'
import {
  credentialCacheKey,
  credentialExchangeError,
  unusableChannelKey,
} from '../shared/credential-exchange.ts'
import { isRecord } from '../shared/json.ts'
import { localError } from '../shared/upstream-error.ts'
import { chatEndpoint, embeddingsEndpoint } from './endpoints.ts'
import { parseBaiduResponse } from './response.ts'
import { BaiduStream } from './stream.ts'

export const BAIDU_DEFAULT_BASE_URL = 'https://aip.baidubce.com'
const WORKSHOP = '/rpc/2.0/ai_custom/v1/wenxinworkshop'

const baseOf = (channel: ChannelCredentials): string =>
  (channel.baseUrl || BAIDU_DEFAULT_BASE_URL).replace(/\/+$/, '')

function keyParts(key: string): { apiKey: string; secretKey: string } | undefined {
  const parts = key.split('|')
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined
  return { apiKey: parts[0], secretKey: parts[1] }
}

/** The OAuth client-credentials call that turns `APIKey|SecretKey` into an access token. */
function credentialExchange(channel: ChannelCredentials, now: number): CredentialExchange | UpstreamError {
  const parts = keyParts(channel.key)
  if (!parts) return unusableChannelKey('the Baidu channel key must be APIKey|SecretKey')
  const query = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: parts.apiKey,
    client_secret: parts.secretKey,
  })
  return {
    kind: 'exchange',
    cacheKey: credentialCacheKey(channel.type, channel.key),
    request: {
      kind: 'request',
      url: `${baseOf(channel)}/oauth/2.0/token?${query}`,
      method: 'POST',
      headers: { Accept: 'application/json' },
      body: '',
      bodyRewritten: false,
      dropUsageChunk: false,
    },
    parse(response) {
      if (response.status < 200 || response.status >= 300) return credentialExchangeError(response)
      let json: unknown
      try {
        json = JSON.parse(response.body.toString('utf8'))
      } catch {
        json = undefined
      }
      if (!isRecord(json) || typeof json.access_token !== 'string' || json.access_token === '') {
        return credentialExchangeError({ ...response, status: 401 })
      }
      const lifetime = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 3600
      return { kind: 'credential', token: json.access_token, expiresAt: now + lifetime }
    },
  }
}

function chatBody(request: RelayRequest): Record<string, unknown> {
  const json = request.json ?? {}
  const messages = Array.isArray(json.messages) ? json.messages.filter(isRecord) : []
  const system = messages.filter((message) => message.role === 'system' || message.role === 'developer')
  const body: Record<string, unknown> = {
    messages: messages
      .filter((message) => message.role === 'user' || message.role === 'assistant')
      .map((message) => ({ role: message.role, content: textOf(message.content) })),
    stream: request.stream,
  }
  const systemText = request.systemPrompt ?? system.map((message) => textOf(message.content)).join('\n')
  if (systemText) body.system = systemText
  if (typeof json.temperature === 'number') body.temperature = json.temperature
  if (typeof json.top_p === 'number') body.top_p = json.top_p
  if (typeof json.frequency_penalty === 'number') body.penalty_score = json.frequency_penalty
  const maxTokens = json.max_completion_tokens ?? json.max_tokens
  if (typeof maxTokens === 'number') body.max_output_tokens = maxTokens
  if (typeof json.user === 'string') body.user_id = json.user
  if (Array.isArray(json.stop)) body.stop = json.stop
  return body
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((part) => isRecord(part) && part.type === 'text')
    .map((part) => String((part as Record<string, unknown>).text ?? ''))
    .join('')
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  const chat = request.mode === 'chat'
  if ((!chat && request.mode !== 'embeddings') || !request.json) {
    return localError(400, 'unsupported_relay_mode', `Baidu channels do not serve ${request.mode}`, {
      retryable: true,
      type: 'invalid_request_error',
    })
  }
  if (!channel.accessToken) {
    return localError(500, 'credential_missing', 'no access token was obtained for the Baidu channel', {
      retryable: true,
    })
  }
  const path = chat
    ? `/chat/${chatEndpoint(request.mappedModel)}`
    : `/embeddings/${embeddingsEndpoint(request.mappedModel)}`
  const input = request.json.input
  const body = chat
    ? chatBody(request)
    : { input: Array.isArray(input) ? input : [input], user_id: request.json.user }
  return {
    kind: 'request',
    url: `${baseOf(channel)}${WORKSHOP}${path}?access_token=${encodeURIComponent(channel.accessToken)}`,
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: request.stream ? 'text/event-stream' : 'application/json',
    },
    body: JSON.stringify(body),
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

export const baiduAdaptor: Adaptor = {
  name: 'baidu',
  credentialExchange,
  buildRequest,
  parseResponse: parseBaiduResponse,
  createStreamTransformer: (request) => new BaiduStream(request),
}
