/**
 * Serves Gemini clients (`/v1beta/models/{model}:generateContent`) through an adaptor that answers
 * in OpenAI's chat format: the request reaches it as its OpenAI translation (RelayRequest.json),
 * and its answers, streams and errors are turned into Gemini's.
 */
import type { Adaptor } from '../adaptor.ts'
import { clientBridge } from '../shared/client-bridge.ts'
import { ChatStreamToGemini } from './chat-stream-to-gemini.ts'
import { chatToGenerateContent } from './from-chat-response.ts'

export function geminiClientBridge(inner: Adaptor): Adaptor {
  return clientBridge(inner, {
    answer: (completion, usage, request) => chatToGenerateContent(completion, usage, request.mappedModel),
    stream: (chat, request) => new ChatStreamToGemini(chat, request),
  })
}
