import { mayNestDeeperThan, nestsDeeperThan, tooDeepMessage } from '@one-api/contracts/json-depth'
import type { RelayMode } from '@one-api/providers'
import { readMultipartField } from '@one-api/providers/shared/multipart'
import { RelayError } from '../auth/relay-error.ts'

/** The fields of a relay request body the gateway itself reads; everything else passes through. */
export interface RelayBodyFacts {
  json: Record<string, unknown> | undefined
  model: string
  stream: boolean
  clientWantsUsage: boolean
  /**
   * The most completion tokens the request can be billed for: max_tokens (or
   * max_completion_tokens) times the completions it asks for (see completionsAsked).
   */
  maxTokens?: number
}

const DEFAULT_MODELS: Partial<Record<RelayMode, string>> = {
  // What OpenAI uses when a moderation request names no model (the SDKs send none by default).
  moderations: 'omni-moderation-latest',
  images: 'dall-e-2',
  'audio-transcription': 'whisper-1',
  'audio-translation': 'whisper-1',
}
const MAX_TOKENS_LIMIT = 2 ** 30
const STREAMING_MODES = new Set<RelayMode>(['chat', 'completions', 'images'])
// OpenAI's bounds: n 1-128 (chat and completions), best_of up to 20.
const MAX_CHOICES = 128

/**
 * Parses and checks the body once, at the edge, with one-api's rules (400 when broken): `max_tokens`
 * is bounded, chat needs non-empty `messages`, completions and images a `prompt`, embeddings,
 * moderations and speech an `input`.
 */
export function readRelayBody(
  mode: RelayMode,
  body: Buffer,
  contentType: string,
  pathModel?: string,
): RelayBodyFacts {
  if (mode === 'audio-transcription' || mode === 'audio-translation') {
    const model = readMultipartField(body, contentType, 'model') ?? DEFAULT_MODELS[mode]!
    // A transcription may be asked for as events (translations cannot be).
    // https://platform.openai.com/docs/api-reference/audio/createTranscription#audio-createtranscription-stream
    const stream =
      mode === 'audio-transcription' && readMultipartField(body, contentType, 'stream') === 'true'
    return { json: undefined, model, stream, clientWantsUsage: false }
  }
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    throw invalid('The request body is not valid JSON')
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw invalid('The request body must be a JSON object')
  // Before anything walks it: token counting, the limits and the upstream body all recurse.
  if (mayNestDeeperThan(body.length) && nestsDeeperThan(json)) throw invalid(tooDeepMessage())
  const record = json as Record<string, unknown>
  // OpenAI's schema makes some fields nullable (model and size of images, stream): null is absent.
  const named = record.model ?? undefined
  if (named !== undefined && typeof named !== 'string') throw invalid('model must be a string', 'model')
  const model = named || pathModel || DEFAULT_MODELS[mode]
  if (!model) throw invalid('model is required', 'model')
  checkModeFields(mode, record)
  const completions = completionsAsked(mode, record)
  const perCompletion = readMaxTokens(record)
  const maxTokens = perCompletion && perCompletion * completions
  const streamOptions = record.stream_options as { include_usage?: unknown } | undefined
  return {
    json: record,
    model,
    stream: asksForStream(mode, record),
    clientWantsUsage: streamOptions?.include_usage === true,
    maxTokens,
  }
}

/**
 * Only chat, completions and images (gpt-image-1's partial images) stream on `stream: true`;
 * `stream` elsewhere is left to the upstream and the answer read as the mode's usual one (a stream
 * expected of an embedding made it a 502 that cooled the channel down). Speech is always relayed
 * as it arrives (relay-attempt.ts); it is a stream of events (and logged as a stream) when the
 * client asks `stream_format: "sse"`, which also makes the upstream call ask for SSE.
 * https://platform.openai.com/docs/api-reference/audio/createSpeech#audio-createspeech-stream_format
 */
function asksForStream(mode: RelayMode, record: Record<string, unknown>): boolean {
  if (mode === 'audio-speech') return record.stream_format === 'sse'
  return record.stream === true && STREAMING_MODES.has(mode)
}

function checkModeFields(mode: RelayMode, record: Record<string, unknown>): void {
  if (mode === 'chat' && (!Array.isArray(record.messages) || record.messages.length === 0)) {
    throw invalid('messages must be a non-empty array', 'messages')
  }
  if (mode === 'chat' && !(record.messages as unknown[]).every(isMessageObject)) {
    throw invalid('each message must be an object', 'messages')
  }
  if (mode === 'completions' && record.prompt === undefined) throw invalid('prompt is required', 'prompt')
  if ((mode === 'embeddings' || mode === 'moderations') && record.input === undefined)
    throw invalid('input is required', 'input')
  if (mode === 'images' && typeof record.prompt !== 'string') throw invalid('prompt is required', 'prompt')
  if (mode === 'audio-speech' && typeof record.input !== 'string') throw invalid('input is required', 'input')
  if (mode === 'rerank') checkRerankFields(record)
  if (record.stream != null && typeof record.stream !== 'boolean')
    throw invalid('stream must be a boolean', 'stream')
}

/** A rerank request: a query and a non-empty list of documents (strings or `{text}` objects). */
function checkRerankFields(record: Record<string, unknown>): void {
  if (typeof record.query !== 'string' || record.query === '') throw invalid('query is required', 'query')
  const documents = record.documents
  if (!Array.isArray(documents) || documents.length === 0)
    throw invalid('documents must be a non-empty array', 'documents')
  const isDocument = (item: unknown) =>
    typeof item === 'string' ||
    (typeof item === 'object' && item !== null && typeof (item as { text?: unknown }).text === 'string')
  if (!documents.every(isDocument))
    throw invalid('each document must be a string or an object with a text', 'documents')
  const topN = record.top_n
  if (topN != null && (typeof topN !== 'number' || !Number.isInteger(topN) || topN < 1))
    throw invalid('top_n must be a positive integer', 'top_n')
}

/**
 * How many completions a chat or completions request is billed for, each up to max_tokens: `n`
 * choices, and for legacy completions `best_of` when larger (OpenAI generates and bills best_of
 * completions to return n) times each prompt of a prompt list.
 * https://platform.openai.com/docs/api-reference/completions/create#completions-create-best_of
 */
function completionsAsked(mode: RelayMode, record: Record<string, unknown>): number {
  if (mode !== 'chat' && mode !== 'completions') return 1
  const n = readChoiceCount(record, 'n')
  if (mode === 'chat') return n
  const prompt = record.prompt
  // A list of strings or of token lists is several prompts; a list of numbers is one tokenised prompt.
  const prompts = Array.isArray(prompt) && prompt.some((item) => typeof item !== 'number') ? prompt.length : 1
  return Math.max(n, readChoiceCount(record, 'best_of')) * Math.max(1, prompts)
}

function readChoiceCount(record: Record<string, unknown>, field: 'n' | 'best_of'): number {
  const value = record[field]
  if (value === undefined || value === null) return 1
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_CHOICES) {
    throw invalid(`${field} must be an integer from 1 to ${MAX_CHOICES}`, field)
  }
  return value
}

function readMaxTokens(record: Record<string, unknown>): number | undefined {
  const field = record.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens'
  const value = record[field]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_TOKENS_LIMIT) {
    throw invalid(`${field} must be a non-negative integer`, field)
  }
  return value > 0 ? value : undefined
}

const isMessageObject = (message: unknown): boolean =>
  typeof message === 'object' && message !== null && !Array.isArray(message)

function invalid(message: string, param: string | null = null): RelayError {
  return new RelayError(400, message, 'invalid_request', 'invalid_request_error', param)
}
