/**
 * Replicate channels (type 46): chat with its language models and image generation with its
 * image models, each request a prediction on an official model (`owner/name`) that the pipeline
 * follows (prediction-task.ts): answered by the create call when it finishes within its wait,
 * polled otherwise, or read from its stream URL for a stream request.
 * https://replicate.com/docs/reference/http#models.predictions.create
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
import { localError } from '../shared/upstream-error.ts'
import { predictionPlan } from './prediction-task.ts'
import { apiBase, authorization, chatInput, imageInput, modelPath, PREFER_WAIT_SECONDS } from './request.ts'
import { parseChat, parseImages } from './response.ts'
import { ReplicateToOpenAiStream } from './stream.ts'

const refuse = (message: string): UpstreamError =>
  localError(400, 'unsupported_endpoint', message, { type: 'invalid_request_error' })

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  if (request.mode !== 'chat' && request.mode !== 'images') {
    return refuse(`Replicate channels serve chat and image requests, not ${request.mode}`)
  }
  if (!request.json) return refuse('Replicate channels take JSON requests only')
  const model = modelPath(request.mappedModel)
  if (!model) {
    return localError(
      400,
      'invalid_model',
      `a Replicate model is named owner/name, not "${request.mappedModel}"`,
      {
        type: 'invalid_request_error',
      },
    )
  }
  if (request.mode === 'images' && request.json.response_format === 'b64_json') {
    return refuse('Replicate channels answer image requests with URLs only (response_format "url")')
  }
  const input = request.mode === 'chat' ? chatInput(request) : imageInput(request)
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Authorization: authorization(channel),
  }
  // A stream request wants the stream URL at once, not the finished prediction.
  if (!request.stream) headers.Prefer = `wait=${PREFER_WAIT_SECONDS}`
  return {
    kind: 'request',
    url: `${apiBase(channel)}/v1/models/${model}/predictions`,
    method: 'POST',
    headers,
    body: JSON.stringify(request.stream ? { input, stream: true } : { input }),
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

function parseResponse(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  return request.mode === 'images' ? parseImages(response, request) : parseChat(response, request)
}

export const replicateAdaptor: Adaptor = {
  name: 'replicate',
  buildRequest,
  parseResponse,
  createStreamTransformer: (request): StreamTransformer => new ReplicateToOpenAiStream(request),
  task: predictionPlan,
}
