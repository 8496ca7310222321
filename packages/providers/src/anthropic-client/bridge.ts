/**
 * Serves `/v1/messages` clients through an adaptor that answers in OpenAI's chat format: the
 * request reaches it as its OpenAI translation (RelayRequest.json), and its answers, streams and
 * errors are turned into the Messages API's.
 */
import type { Adaptor } from '../adaptor.ts'
import { clientBridge } from '../shared/client-bridge.ts'
import { ChatStreamToMessages } from './chat-stream-to-messages.ts'
import { chatToMessage } from './from-chat-response.ts'

export function anthropicClientBridge(inner: Adaptor): Adaptor {
  return clientBridge(inner, {
    answer: (completion, usage, request) => chatToMessage(completion, usage, request.mappedModel),
    stream: (chat, request) => new ChatStreamToMessages(chat, request),
  })
}
