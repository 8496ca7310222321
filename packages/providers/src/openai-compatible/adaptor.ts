/**
 * The adaptor for every channel type that speaks OpenAI's wire format (one-api's "openai" API type).
 * https://platform.openai.com/docs/api-reference
 */
import type {
  Adaptor,
  ChannelCredentials,
  RelayRequest,
  StreamTransformer,
  UpstreamError,
  UpstreamRequest,
} from '../adaptor.ts'
import { createOpenAiStreamTransformer } from '../shared/openai-stream.ts'
import { prepareBody } from './request-body.ts'
import { buildUpstreamUrl, ChannelTypeId } from './request-url.ts'
import { parseOpenAiResponse } from './response.ts'

/** OpenRouter ranks apps by these headers. https://openrouter.ai/docs/api-reference/overview#headers */
const OPENROUTER_HEADERS = { 'HTTP-Referer': 'https://github.com/songquanpeng/one-api', 'X-Title': 'One API' }

function buildHeaders(
  request: RelayRequest,
  channel: ChannelCredentials,
  contentType: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {}
  if (contentType) headers['Content-Type'] = contentType
  // Streams must be asked for as SSE; the OpenAI SDKs send `Accept: application/json` even then.
  const accept = request.stream ? 'text/event-stream' : request.accept
  if (accept) headers.Accept = accept
  if (channel.type === ChannelTypeId.azure) {
    // https://learn.microsoft.com/azure/ai-services/openai/reference#authentication
    headers['api-key'] = channel.key
  } else {
    headers.Authorization = `Bearer ${channel.key}`
  }
  if (channel.type === ChannelTypeId.openRouter) Object.assign(headers, OPENROUTER_HEADERS)
  return headers
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  const url = buildUpstreamUrl(request, channel)
  if (typeof url !== 'string') return url
  const prepared = prepareBody(request)
  return {
    kind: 'request',
    url,
    method: 'POST',
    headers: buildHeaders(request, channel, prepared.contentType),
    body: prepared.body,
    bodyRewritten: prepared.rewritten,
    dropUsageChunk: prepared.dropUsageChunk,
  }
}

function createStreamTransformer(request: RelayRequest, built: UpstreamRequest): StreamTransformer {
  return createOpenAiStreamTransformer({
    mode: request.mode === 'completions' ? 'completions' : 'chat',
    dropUsageChunk: built.dropUsageChunk,
  })
}

export const openAiCompatibleAdaptor: Adaptor = {
  name: 'openai',
  buildRequest,
  parseResponse: parseOpenAiResponse,
  createStreamTransformer,
}
