export type { FaultPlan, FaultRule } from './faults.ts'
export {
  type MockUpstream,
  type MockUpstreamOptions,
  type RecordedRequest,
  startMockUpstream,
} from './server.ts'
export { DEFAULT_CHUNKS, generatedText } from './usage-rules.ts'
