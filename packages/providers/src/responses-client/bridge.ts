/**
 * Serves `/v1/responses` clients through an adaptor that answers in OpenAI's chat format: the
 * request reaches it as its chat translation (RelayRequest.json), and its answers and streams are
 * turned into the Responses API's. Errors stay in OpenAI's shape, which is the Responses API's too.
 */
import type { Adaptor } from '../adaptor.ts'
import { clientBridge } from '../shared/client-bridge.ts'
import { localError } from '../shared/upstream-error.ts'
import { ChatStreamToResponses } from './chat-stream-to-responses.ts'
import { chatToResponse } from './response-object.ts'
import { untranslatable } from './to-chat-request.ts'

export function responsesClientBridge(inner: Adaptor): Adaptor {
  return clientBridge(inner, {
    answer: (completion, usage, request) =>
      chatToResponse(completion, usage, {
        model: request.mappedModel,
        receivedAt: request.receivedAt ?? 0,
        native: request.native?.json ?? {},
      }),
    stream: (chat, request) => new ChatStreamToResponses(chat, request),
    refuse(request) {
      const refusal = request.native && untranslatable(request.native.json)
      // Another channel, one that serves the Responses API itself, may take it.
      return refusal
        ? localError(400, 'unsupported_on_channel', refusal, {
            retryable: true,
            type: 'invalid_request_error',
          })
        : undefined
    },
  })
}
