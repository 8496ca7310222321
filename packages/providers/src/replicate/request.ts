/**
 * Predictions on Replicate's official models (channel type 46), as one-api creates them:
 * `POST /v1/models/{owner}/{name}/predictions` with `{"input": {...}}`.
 * https://replicate.com/docs/reference/http#models.predictions.create
 * https://replicate.com/docs/topics/predictions/create-a-prediction
 */
import type { ChannelCredentials, RelayRequest } from '../adaptor.ts'
import { isRecord, type Json } from '../shared/json.ts'

export const REPLICATE_DEFAULT_BASE_URL = 'https://api.replicate.com'
/** one-api's default for chat models that are given no limit. */
const DEFAULT_MAX_TOKENS = 500
/**
 * Seconds the create call may wait for the result (`Prefer: wait=N`, 1 to 60): fast models answer
 * in that one call; slower ones are polled afterwards.
 */
export const PREFER_WAIT_SECONDS = 30

/** The API's origin: the channel's base URL without the `/v1/models/` one-api stored as its default. */
export const apiBase = (channel: ChannelCredentials): string =>
  (channel.baseUrl || REPLICATE_DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/v1(\/models)?$/, '')

/** `owner/name` (a version after ':' is not part of the official models' path). */
export function modelPath(model: string): string | undefined {
  const [owner, name] = model.split(':', 1)[0]!.split('/')
  if (!owner || !name || model.split('/').length !== 2) return undefined
  return `${encodeURIComponent(owner)}/${encodeURIComponent(name)}`
}

/** Replicate takes `Bearer` (and its older `Token`) with the API token; a key that names its scheme is sent as it is. */
export function authorization(channel: ChannelCredentials): string {
  return /^(Bearer|Token) /.test(channel.key) ? channel.key : `Bearer ${channel.key}`
}

const messageText = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .filter((part) => isRecord(part) && part.type === 'text')
          .map((part) => String((part as Json).text ?? ''))
          .join('')
      : ''

/**
 * A chat request as a language model's input: system messages as `system_prompt`, the others as
 * one prompt of "role: content" lines (as one-api builds it).
 */
export function chatInput(request: RelayRequest): Json {
  const json = request.json ?? {}
  const messages = (Array.isArray(json.messages) ? json.messages : []).filter(isRecord)
  // The channel's forced system prompt replaces the client's, as for other channels.
  const systemPrompt =
    request.systemPrompt ??
    messages
      .filter((message) => message.role === 'system')
      .map((message) => messageText(message.content))
      .join('\n')
  const prompt = messages
    .filter((message) => message.role !== 'system')
    .map((message) => `${message.role}: ${messageText(message.content)}\n`)
    .join('')
  const input: Json = { prompt }
  if (systemPrompt) input.system_prompt = systemPrompt
  const maxTokens = json.max_completion_tokens ?? json.max_tokens
  input.max_tokens = typeof maxTokens === 'number' ? maxTokens : DEFAULT_MAX_TOKENS
  for (const field of ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty', 'seed']) {
    if (typeof json[field] === 'number') input[field] = json[field]
  }
  if (json.stop !== undefined)
    input.stop_sequences = Array.isArray(json.stop) ? json.stop.join(',') : json.stop
  return input
}

const greatestCommonDivisor = (left: number, right: number): number =>
  right === 0 ? left : greatestCommonDivisor(right, left % right)

/** An image request as an image model's input: the prompt, the count, and the size as an aspect ratio. */
export function imageInput(request: RelayRequest): Json {
  const json = request.json ?? {}
  const input: Json = { prompt: json.prompt }
  if (typeof json.n === 'number' && json.n > 1) input.num_outputs = json.n
  const size = typeof json.size === 'string' ? /^(\d+)x(\d+)$/.exec(json.size) : null
  if (size) {
    const width = Number(size[1])
    const height = Number(size[2])
    const divisor = greatestCommonDivisor(width, height) || 1
    input.aspect_ratio = `${width / divisor}:${height / divisor}`
  }
  return input
}
