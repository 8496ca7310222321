/**
 * The non-chat endpoints in OpenAI's wire format: embeddings, moderations, images, transcriptions,
 * translations, models (speech: speech.ts).
 * https://platform.openai.com/docs/api-reference
 */
import type { ServerResponse } from 'node:http'
import { CREATED, script } from './chat.ts'
import { sendError, sendJson } from './errors.ts'
import type { FaultPlan } from './faults.ts'
import type { MultipartForm } from './multipart-fields.ts'
import { writeStream } from './stream-writer.ts'
import { promptTokensOf } from './usage-rules.ts'

const DEFAULT_DIMENSIONS = 8
const asList = (input: unknown): unknown[] =>
  Array.isArray(input) && input.length > 0 && typeof input[0] !== 'number' ? input : [input]

/** A fixed vector per input position, so tests can compare values. */
function vector(position: number, dimensions: number): number[] {
  return Array.from(
    { length: dimensions },
    (_, index) => Math.round(Math.sin((position + 1) * (index + 1)) * 1e6) / 1e6,
  )
}

/**
 * The official SDKs ask for base64 (little-endian float32) and decode it themselves.
 * https://platform.openai.com/docs/api-reference/embeddings/create#embeddings-create-encoding_format
 */
const base64Vector = (values: number[]): string =>
  Buffer.from(new Float32Array(values).buffer).toString('base64')

export function handleEmbeddings(
  response: ServerResponse,
  json: Record<string, unknown>,
  model: string,
  faults: FaultPlan,
): void {
  const dimensions =
    typeof json.dimensions === 'number' && json.dimensions > 0
      ? Math.min(json.dimensions, 4096)
      : DEFAULT_DIMENSIONS
  const base64 = json.encoding_format === 'base64'
  const data = asList(json.input).map((_, index) => ({
    object: 'embedding',
    index,
    embedding: base64 ? base64Vector(vector(index, dimensions)) : vector(index, dimensions),
  }))
  const promptTokens = faults.promptTokens ?? promptTokensOf(json)
  const usage = faults.noUsage ? {} : { usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } }
  sendJson(response, 200, JSON.stringify({ object: 'list', data, model, ...usage }))
}

const CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/instructions',
  'self-harm/intent',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
]

/** Inputs containing "flag-me" are flagged as harassment, so tests can see both outcomes. */
export function handleModerations(
  response: ServerResponse,
  json: Record<string, unknown>,
  model: string,
): void {
  const results = asList(json.input).map((input) => {
    const flagged = JSON.stringify(input).includes('flag-me')
    const categories = Object.fromEntries(CATEGORIES.map((name) => [name, flagged && name === 'harassment']))
    const scores = Object.fromEntries(
      CATEGORIES.map((name) => [name, flagged && name === 'harassment' ? 0.98 : 0.0001]),
    )
    // omni-moderation reports which input kinds each category was judged on.
    const applied = Object.fromEntries(CATEGORIES.map((name) => [name, ['text']]))
    return { flagged, categories, category_scores: scores, category_applied_input_types: applied }
  })
  sendJson(response, 200, JSON.stringify({ id: 'modr-mock', model, results }))
}

/** A 1x1 transparent PNG. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

/** dall-e models answer with URLs unless asked for b64_json; gpt-image models always send base64. */
export function handleImages(
  response: ServerResponse,
  json: Record<string, unknown>,
  model: string,
  faults: FaultPlan,
): void {
  const count = faults.images ?? (typeof json.n === 'number' && json.n >= 1 ? Math.min(json.n, 10) : 1)
  const gptImage = model.startsWith('gpt-image')
  const base64 = gptImage || json.response_format === 'b64_json'
  const data = Array.from({ length: count }, (_, index) =>
    base64
      ? { b64_json: PNG_BASE64 }
      : { url: `https://mock-upstream.invalid/images/${index}.png`, revised_prompt: json.prompt },
  )
  const promptTokens = faults.promptTokens ?? promptTokensOf(json)
  const usage =
    gptImage && !faults.noUsage
      ? {
          usage: {
            input_tokens: promptTokens,
            output_tokens: 272 * count,
            total_tokens: promptTokens + 272 * count,
            input_tokens_details: { text_tokens: promptTokens, image_tokens: 0 },
          },
        }
      : {}
  sendJson(response, 200, JSON.stringify({ created: CREATED, data, ...usage }))
}

export const TRANSCRIPT = 'Hello from the mock upstream transcription.'

/** https://platform.openai.com/docs/api-reference/audio/createTranscription#audio-createtranscription-response_format */
export function handleTranscription(
  response: ServerResponse,
  form: MultipartForm | undefined,
  translate: boolean,
  faults: FaultPlan,
) {
  const model = form?.fields.model ?? 'whisper-1'
  if (!form || form.files.length === 0) {
    sendError(response, 400, model, {
      error: {
        message: "Missing required parameter: 'file'.",
        type: 'invalid_request_error',
        param: 'file',
        code: null,
      },
    })
    return
  }
  const format = form.fields.response_format ?? 'json'
  const text = TRANSCRIPT
  if (form.fields.stream === 'true' && !translate) return streamTranscript(response, model, faults)
  switch (format) {
    case 'text':
      return sendJson(response, 200, `${text}\n`, 'text/plain; charset=utf-8')
    case 'srt':
      return sendJson(
        response,
        200,
        `1\n00:00:00,000 --> 00:00:02,000\n${text}\n\n`,
        'text/plain; charset=utf-8',
      )
    case 'vtt':
      return sendJson(
        response,
        200,
        `WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n${text}\n\n`,
        'text/vtt; charset=utf-8',
      )
    case 'verbose_json': {
      const segment = {
        id: 0,
        seek: 0,
        start: 0,
        end: 2,
        text,
        tokens: [50364, 2425, 490],
        temperature: 0,
        avg_logprob: -0.2,
        compression_ratio: 1,
        no_speech_prob: 0.01,
      }
      const language = translate ? 'english' : (form.fields.language ?? 'english')
      return sendJson(
        response,
        200,
        JSON.stringify({
          task: translate ? 'translate' : 'transcribe',
          language,
          duration: 2,
          text,
          segments: [segment],
        }),
      )
    }
    default:
      return sendJson(response, 200, JSON.stringify({ text, ...transcriptionUsage(model, faults) }))
  }
}

/**
 * A streamed transcription: one `transcript.text.delta` event per word (`chunk-delay-ms` apart),
 * then `transcript.text.done` with the whole text and, for the gpt-4o models, the usage.
 * https://platform.openai.com/docs/api-reference/audio/transcript-text-delta-event
 */
function streamTranscript(response: ServerResponse, model: string, faults: FaultPlan) {
  const words = TRANSCRIPT.split(/(?<= )/)
  const done = { type: 'transcript.text.done', text: TRANSCRIPT, ...transcriptionUsage(model, faults) }
  const events = script(words.length + 1, (index) =>
    index < words.length
      ? `data: ${JSON.stringify({ type: 'transcript.text.delta', delta: words[index] })}\n\n`
      : `data: ${JSON.stringify(done)}\n\n`,
  )
  return writeStream(response, events, faults)
}

/** Tokens of the mock's transcript as gpt-4o-transcribe would count them. */
const TRANSCRIPT_TOKENS = 9

/**
 * The gpt-4o transcription models report token usage, audio in and text out; whisper-1 none.
 * https://platform.openai.com/docs/api-reference/audio/json-object#audio/json-object-usage
 */
function transcriptionUsage(model: string, faults: FaultPlan): { usage?: Record<string, unknown> } {
  if (!model.startsWith('gpt-4o') || faults.noUsage) return {}
  const audioTokens = faults.promptTokens ?? 14
  return {
    usage: {
      type: 'tokens',
      input_tokens: audioTokens,
      input_token_details: { text_tokens: 0, audio_tokens: audioTokens },
      output_tokens: TRANSCRIPT_TOKENS,
      total_tokens: audioTokens + TRANSCRIPT_TOKENS,
    },
  }
}

export const MODEL_IDS = [
  'gpt-4o-mini',
  'gpt-4o',
  'gpt-3.5-turbo',
  'text-embedding-3-small',
  'dall-e-3',
  'tts-1',
  'whisper-1',
  'omni-moderation-latest',
]

const MODELS_BODY = JSON.stringify({
  object: 'list',
  data: MODEL_IDS.map((id) => ({ id, object: 'model', created: CREATED, owned_by: 'mock-upstream' })),
})

export const handleModels = (response: ServerResponse): void => sendJson(response, 200, MODELS_BODY)
