export * from './adaptor.ts'
export { toAnthropicErrorBody } from './anthropic-client/from-chat-response.ts'
export {
  InvalidMessagesRequest,
  messagesToChatRequest,
} from './anthropic-client/to-chat-request.ts'
export { toGoogleErrorBody } from './gemini-client/from-chat-response.ts'
export {
  generateContentToChatRequest,
  InvalidGenerateContentRequest,
} from './gemini-client/to-chat-request.ts'
export { openAiCompatibleAdaptor } from './openai-compatible/adaptor.ts'
export { withSystemPrompt } from './openai-compatible/request-body.ts'
export { getAdaptor, supportedChannelTypes } from './registry.ts'
export { relayModeFromPath } from './relay-mode.ts'
export {
  InvalidResponsesRequest,
  responsesToChatRequest,
} from './responses-client/to-chat-request.ts'
export {
  credentialCacheKey,
  credentialExchangeError,
  unusableChannelKey,
} from './shared/credential-exchange.ts'
export {
  createOpenAiStreamTransformer,
  DONE_EVENT,
  type OpenAiStreamOptions,
} from './shared/openai-stream.ts'
export { type SseEvent, SseParser } from './shared/sse.ts'
export {
  clientFacingError,
  type ErrorFields,
  extractErrorFields,
  localError,
  mapUpstreamError,
  shouldDisableChannel,
  toOpenAiErrorBody,
  transportError,
} from './shared/upstream-error.ts'
export { hasTokens, normaliseUsage, type Usage } from './shared/usage.ts'
