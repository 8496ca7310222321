export { MOCK_AWS_CREDENTIALS } from './aws-signature.ts'
export { type BedrockStreamEvent, encodeBedrockEvents } from './bedrock.ts'
export type { FaultPlan, FaultRule } from './faults.ts'
export { revokeBaiduTokens } from './providers/baidu.ts'
export * from './providers/credentials.ts'
export {
  type MockUpstream,
  type MockUpstreamOptions,
  type RecordedRequest,
  startMockUpstream,
} from './server.ts'
export { SPEECH_PIECE_BYTES, SPEECH_TOKENS_PER_PIECE, speechAudio, speechPiece } from './speech.ts'
export { DEFAULT_CHUNKS, generatedText } from './usage-rules.ts'
export { SPARK_MOCK_KEY } from './xunfei.ts'
