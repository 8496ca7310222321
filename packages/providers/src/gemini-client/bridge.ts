/**
 * Serves Gemini clients (`/v1beta/models/{model}:generateContent`) through an adaptor that answers
 * in OpenAI's chat format: the request reaches it as its OpenAI translation (RelayRequest.json),
 * and its answers, streams and errors are turned into Gemini's.
 */
import type { Adaptor, ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { localError } from '../shared/upstream-error.ts'
import { ChatStreamToGemini } from './chat-stream-to-gemini.ts'
import { chatToGenerateContent } from './from-chat-response.ts'

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
  const answer = chatToGenerateContent(
    completion as Record<string, unknown>,
    parsed.usage,
    request.mappedModel,
  )
  return { ...parsed, body: Buffer.from(JSON.stringify(answer)) }
}

export function geminiClientBridge(inner: Adaptor): Adaptor {
  return {
    name: inner.name,
    remoteImages: inner.remoteImages,
    credentialExchange: inner.credentialExchange,
    buildRequest: inner.buildRequest,
    // A job the upstream runs in steps is followed alike whatever the client's API.
    task: inner.task,
    parseResponse(response: UpstreamResponse, request: RelayRequest) {
      const parsed = inner.parseResponse(response, request)
      return parsed.kind === 'error' ? parsed : translateAnswer(parsed, request)
    },
    createStreamTransformer(request, built) {
      return new ChatStreamToGemini(inner.createStreamTransformer(request, built), request)
    },
  }
}
