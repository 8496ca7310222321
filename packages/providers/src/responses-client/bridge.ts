/**
 * Serves `/v1/responses` clients through an adaptor that answers in OpenAI's chat format: the
 * request reaches it as its chat translation (RelayRequest.json), and its answers and streams are
 * turned into the Responses API's. Errors stay in OpenAI's shape, which is the Responses API's too.
 */
import type { Adaptor, ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { localError } from '../shared/upstream-error.ts'
import { ChatStreamToResponses } from './chat-stream-to-responses.ts'
import { chatToResponse } from './response-object.ts'
import { untranslatable } from './to-chat-request.ts'

function translateAnswer(parsed: ParsedResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  let completion: unknown
  try {
    completion = JSON.parse(parsed.body.toString('utf8'))
  } catch {
    return localError(502, 'unmarshal_response_body_failed', 'upstream returned invalid JSON', {
      retryable: true,
    })
  }
  if (typeof completion !== 'object' || completion === null) {
    return localError(502, 'invalid_upstream_response', 'upstream returned an unexpected body', {
      retryable: true,
    })
  }
  const response = chatToResponse(completion as Record<string, unknown>, parsed.usage, {
    model: request.mappedModel,
    receivedAt: request.receivedAt ?? 0,
    native: request.native?.json ?? {},
  })
  return { ...parsed, body: Buffer.from(JSON.stringify(response)) }
}

export function responsesClientBridge(inner: Adaptor): Adaptor {
  return {
    name: inner.name,
    remoteImages: inner.remoteImages,
    credentialExchange: inner.credentialExchange,
    // A job the upstream runs in steps is followed alike whatever the client's API.
    task: inner.task,
    buildRequest(request, channel) {
      const refusal = request.native && untranslatable(request.native.json)
      // Another channel, one that serves the Responses API itself, may take it.
      if (refusal)
        return localError(400, 'unsupported_on_channel', refusal, {
          retryable: true,
          type: 'invalid_request_error',
        })
      return inner.buildRequest(request, channel)
    },
    parseResponse(response: UpstreamResponse, request: RelayRequest) {
      const parsed = inner.parseResponse(response, request)
      return parsed.kind === 'error' ? parsed : translateAnswer(parsed, request)
    },
    createStreamTransformer(request, built) {
      return new ChatStreamToResponses(inner.createStreamTransformer(request, built), request)
    },
  }
}
