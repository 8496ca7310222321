/**
 * Upstream URL rules of the OpenAI-format channel types, as one-api builds them.
 */
import { DEFAULT_AZURE_API_VERSION } from '@one-api/contracts/channel-types'
import type { ChannelCredentials, RelayMode, RelayRequest, UpstreamError } from '../adaptor.ts'
import { localError } from '../shared/upstream-error.ts'
import { defaultBaseUrl } from './default-base-urls.ts'

export const ChannelTypeId = {
  openAi: 1,
  azure: 3,
  openRouter: 20,
  minimax: 27,
  doubao: 40,
  novita: 41,
  baiduV2: 47,
  aliBailian: 49,
  openAiCompatible: 50,
  geminiOpenAiCompatible: 51,
} as const

const CLOUDFLARE_GATEWAY = 'https://gateway.ai.cloudflare.com'

const trimTrailingSlash = (url: string): string => url.replace(/\/+$/, '')
const stripV1 = (path: string): string => (path.startsWith('/v1/') || path === '/v1' ? path.slice(3) : path)
const withoutQuery = (path: string): string => path.split('?', 1)[0]

export function resolveBaseUrl(channel: ChannelCredentials): string {
  const configured = channel.baseUrl?.trim()
  if (configured) return trimTrailingSlash(configured)
  return trimTrailingSlash(defaultBaseUrl(channel.type))
}

function unsupported(mode: RelayMode, channel: ChannelCredentials): UpstreamError {
  // Another channel of a different type may serve this mode, so the pipeline may retry.
  return localError(400, 'unsupported_relay_mode', `channel type ${channel.type} does not support ${mode}`, {
    retryable: true,
    type: 'invalid_request_error',
  })
}

/** The Azure api-version: channel config, else the legacy `other` column, else the client's query. */
function azureApiVersion(request: RelayRequest, channel: ChannelCredentials): string {
  const fromConfig = channel.config?.api_version
  if (typeof fromConfig === 'string' && fromConfig.trim() !== '') return fromConfig.trim()
  if (channel.other?.trim()) return channel.other.trim()
  const query = request.path.split('?')[1]
  const fromClient = query ? new URLSearchParams(query).get('api-version') : null
  return fromClient || DEFAULT_AZURE_API_VERSION
}

/**
 * Azure OpenAI routes by deployment; one-api names deployments after the model without dots
 * (gpt-3.5-turbo -> gpt-35-turbo), except for images.
 * https://learn.microsoft.com/azure/ai-services/openai/reference
 */
function azureUrl(base: string, request: RelayRequest, channel: ChannelCredentials): string {
  const task = stripV1(withoutQuery(request.path)).replace(/^\//, '')
  const deployment = request.mode === 'images' ? request.mappedModel : request.mappedModel.replaceAll('.', '')
  const root = base.startsWith(CLOUDFLARE_GATEWAY) ? base : `${base}/openai/deployments`
  const version = encodeURIComponent(azureApiVersion(request, channel))
  return `${root}/${encodeURIComponent(deployment)}/${task}?api-version=${version}`
}

function chatOrEmbeddings(
  base: string,
  mode: RelayMode,
  chat: string,
  embeddings: string,
): string | undefined {
  if (mode === 'chat') return base + chat
  if (mode === 'embeddings') return base + embeddings
  return undefined
}

/** The full upstream URL, or an error when the channel cannot serve the request. */
export function buildUpstreamUrl(request: RelayRequest, channel: ChannelCredentials): string | UpstreamError {
  const base = resolveBaseUrl(channel)
  if (base === '') {
    return localError(500, 'channel_base_url_missing', `channel type ${channel.type} needs a base URL`, {
      retryable: true,
    })
  }
  const { mode, path } = request
  let url: string | undefined
  switch (channel.type) {
    case ChannelTypeId.azure:
      return azureUrl(base, request, channel)
    case ChannelTypeId.minimax:
      url = mode === 'chat' ? `${base}/v1/text/chatcompletion_v2` : undefined
      break
    case ChannelTypeId.doubao:
      url = chatOrEmbeddings(base, mode, '/api/v3/chat/completions', '/api/v3/embeddings')
      break
    case ChannelTypeId.novita:
      url = mode === 'chat' ? `${base}/chat/completions` : undefined
      break
    case ChannelTypeId.baiduV2:
      url = mode === 'chat' ? `${base}/v2/chat/completions` : undefined
      break
    case ChannelTypeId.aliBailian:
      url = chatOrEmbeddings(
        base,
        mode,
        '/compatible-mode/v1/chat/completions',
        '/compatible-mode/v1/embeddings',
      )
      break
    case ChannelTypeId.openAiCompatible:
    case ChannelTypeId.geminiOpenAiCompatible:
      // SDK-style base URLs already end in /v1 (or /v1beta/openai).
      return base + stripV1(path)
    default: {
      // Cloudflare AI Gateway's OpenAI endpoint already contains the version segment.
      // https://developers.cloudflare.com/ai-gateway/providers/openai/
      const gateway = channel.type === ChannelTypeId.openAi && base.startsWith(CLOUDFLARE_GATEWAY)
      return base + (gateway ? stripV1(path) : path)
    }
  }
  return url ?? unsupported(mode, channel)
}
