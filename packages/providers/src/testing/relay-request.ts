/**
 * Builds RelayRequest values for tests the way the pipeline will: original bytes plus the parse.
 */
import type { RelayMode, RelayRequest } from '../adaptor.ts'

export function jsonRelayRequest(
  mode: RelayMode,
  json: Record<string, unknown>,
  overrides: Partial<RelayRequest> = {},
): RelayRequest {
  const body = Buffer.from(JSON.stringify(json))
  const model = typeof json.model === 'string' ? json.model : ''
  const options = json.stream_options as { include_usage?: unknown } | undefined
  return {
    mode,
    path: PATHS[mode],
    body,
    json,
    requestedModel: model,
    mappedModel: model,
    stream: json.stream === true,
    clientWantsUsage: options?.include_usage === true,
    contentType: 'application/json',
    accept: 'application/json',
    ...overrides,
  }
}

export const PATHS: Record<RelayMode, string> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  moderations: '/v1/moderations',
  images: '/v1/images/generations',
  'audio-speech': '/v1/audio/speech',
  'audio-transcription': '/v1/audio/transcriptions',
  'audio-translation': '/v1/audio/translations',
  rerank: '/v1/rerank',
}
