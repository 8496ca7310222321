/**
 * AWS Bedrock channels (type 33): the Converse and ConverseStream APIs, signed with SigV4 from the
 * channel's access key, secret key and region (credentials.ts), at the request's arrival time.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 * Converse speaks one format for every model, so Claude and Llama (and any other Bedrock model
 * asked for by its id) share this code; `/v1/messages` clients are served through the bridge.
 */
import type {
  Adaptor,
  ChannelCredentials,
  RelayRequest,
  StreamTransformer,
  UpstreamError,
  UpstreamRequest,
} from '../adaptor.ts'
import { remoteImageUrls } from '../anthropic/request-body.ts'
import { localError } from '../shared/upstream-error.ts'
import { awsCredentials } from './credentials.ts'
import { bedrockModelId } from './model-ids.ts'
import { converseBody, UnusableImage } from './request-body.ts'
import { parseBedrockResponse } from './response.ts'
import { signRequest } from './sigv4.ts'
import { BedrockToOpenAiStream } from './stream.ts'

const invalidRequest = (code: string, message: string) =>
  localError(400, code, message, { type: 'invalid_request_error' })

/** `https://bedrock-runtime.{region}.amazonaws.com`, or the channel's base URL (a VPC endpoint, a proxy). */
function endpoint(channel: ChannelCredentials, region: string): string {
  return (channel.baseUrl || `https://bedrock-runtime.${region}.amazonaws.com`).replace(/\/+$/, '')
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  if (request.mode !== 'chat' || !request.json) {
    return invalidRequest('unsupported_endpoint', 'AWS Bedrock channels serve chat completions only')
  }
  const credentials = awsCredentials(channel)
  if ('kind' in credentials) return credentials
  const modelId = bedrockModelId(request.mappedModel)
  if (!modelId) {
    // Another channel may have the model under a name it knows.
    return {
      ...invalidRequest('model_not_found', `the model ${request.mappedModel} has no AWS Bedrock model id`),
      retryable: true,
    }
  }
  if (request.receivedAt === undefined)
    return localError(500, 'no_request_time', 'the request has no time to sign with')
  let body: string
  try {
    body = JSON.stringify(
      converseBody(request.json, { modelId, systemPrompt: request.systemPrompt, images: request.images }),
    )
  } catch (error) {
    if (error instanceof UnusableImage)
      return invalidRequest('invalid_image', `AWS Bedrock cannot take ${error.message}`)
    throw error
  }
  const operation = request.stream ? 'converse-stream' : 'converse'
  const url = `${endpoint(channel, credentials.region)}/model/${encodeURIComponent(modelId)}/${operation}`
  const headers = signRequest(
    {
      url,
      headers: {
        'content-type': 'application/json',
        accept: request.stream ? 'application/vnd.amazon.eventstream' : 'application/json',
      },
      body,
      service: 'bedrock',
      time: request.receivedAt,
    },
    credentials,
  )
  return { kind: 'request', url, method: 'POST', headers, body, bodyRewritten: true, dropUsageChunk: false }
}

export const bedrockAdaptor: Adaptor = {
  name: 'aws-bedrock',
  remoteImages: (request) => remoteImageUrls(request.json),
  buildRequest,
  parseResponse: parseBedrockResponse,
  createStreamTransformer: (request): StreamTransformer => new BedrockToOpenAiStream(request),
}
