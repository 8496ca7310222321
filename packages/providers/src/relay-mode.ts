/**
 * Relay mode from the incoming path (one-api relay/relaymode/helper.go), for the pipeline.
 */
import type { RelayMode } from './adaptor.ts'

export function relayModeFromPath(path: string): RelayMode | undefined {
  const route = path.split('?', 1)[0]
  if (route.startsWith('/v1/chat/completions')) return 'chat'
  if (route.startsWith('/v1/completions')) return 'completions'
  // Also /v1/engines/{model}/embeddings (the legacy engines API).
  if (route.endsWith('/embeddings')) return 'embeddings'
  if (route.startsWith('/v1/moderations')) return 'moderations'
  if (route.startsWith('/v1/images/generations')) return 'images'
  if (route.startsWith('/v1/audio/speech')) return 'audio-speech'
  if (route.startsWith('/v1/audio/transcriptions')) return 'audio-transcription'
  if (route.startsWith('/v1/audio/translations')) return 'audio-translation'
  // Not one-api's: the rerank API of Jina, Cohere and vLLM.
  if (route.startsWith('/v1/rerank')) return 'rerank'
  return undefined
}
