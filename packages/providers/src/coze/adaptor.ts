/**
 * Coze channels (type 34): bots as models (`bot-<bot id>`, or the bare bot id as one-api allows), the v3 chat API with a Bearer token
 * (a personal access token), the user id from the channel's config (`user_id`).
 * https://www.coze.com/docs/developer_guides/chat_v3
 */
import type { Adaptor, ChannelCredentials, RelayRequest, UpstreamError, UpstreamRequest } from '../adaptor.ts'
import { localError } from '../shared/upstream-error.ts'
import { BOT_PREFIX, cozeBody } from './request-body.ts'
import { parseCozeResponse } from './response.ts'
import { CozeStream } from './stream.ts'

export const COZE_DEFAULT_BASE_URL = 'https://api.coze.com'
/** The user Coze is told of when the channel names none (Coze requires one). */
export const COZE_DEFAULT_USER = 'one-api'

function userId(request: RelayRequest, channel: ChannelCredentials): string {
  const configured = channel.config?.user_id
  if (typeof configured === 'string' && configured.trim() !== '') return configured.trim()
  const client = request.json?.user
  return typeof client === 'string' && client !== '' ? client : COZE_DEFAULT_USER
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  if (request.mode !== 'chat' || !request.json) {
    return localError(400, 'unsupported_relay_mode', 'Coze channels serve chat completions only', {
      retryable: true,
      type: 'invalid_request_error',
    })
  }
  // The model is the bot id, with or without the `bot-` prefix (one-api strips it when present).
  const model = request.mappedModel
  const botId = model.startsWith(BOT_PREFIX) ? model.slice(BOT_PREFIX.length) : model
  if (botId === '') {
    return localError(400, 'invalid_coze_model', `Coze models are bots, named ${BOT_PREFIX}<bot id>`, {
      retryable: true,
      type: 'invalid_request_error',
    })
  }
  const body = cozeBody(request.json, botId, userId(request, channel), request.systemPrompt)
  return {
    kind: 'request',
    url: `${(channel.baseUrl || COZE_DEFAULT_BASE_URL).replace(/\/+$/, '')}/v3/chat`,
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
      Authorization: `Bearer ${channel.key}`,
    },
    body: JSON.stringify(body),
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

export const cozeAdaptor: Adaptor = {
  name: 'coze',
  buildRequest,
  parseResponse: parseCozeResponse,
  createStreamTransformer: (request) => new CozeStream(request),
}
