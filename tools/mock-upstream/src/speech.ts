/**
 * POST /v1/audio/speech: binary audio, sent whole, or in pieces as OpenAI sends speech while it is
 * synthesised (chunked transfer), or as `speech.audio.delta` / `speech.audio.done` events when the
 * request asks `stream_format: "sse"`.
 * https://platform.openai.com/docs/api-reference/audio/createSpeech
 * https://platform.openai.com/docs/api-reference/audio/speech-audio-delta-event
 */
import type { ServerResponse } from 'node:http'
import { script } from './chat.ts'
import { sendError, sendJson } from './errors.ts'
import type { FaultPlan } from './faults.ts'
import { drained, type StreamScript, writeStream } from './stream-writer.ts'
import { DEFAULT_CHUNKS, promptTokensOf } from './usage-rules.ts'

const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
}
const ID3 = Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1')
/** 4 KiB of fixed bytes behind an ID3 tag: clients only check they got binary audio. */
const AUDIO = Buffer.concat([ID3, Buffer.alloc(4086, 0x55)])
export const SPEECH_PIECE_BYTES = 1000
/** Output tokens a `speech.audio.done` event reports per piece of audio. */
export const SPEECH_TOKENS_PER_PIECE = 10

/**
 * The i-th piece of streamed audio: 1000 bytes that differ from piece to piece (so a test can see
 * bytes lost, repeated or reordered), the first behind an ID3 tag.
 */
export function speechPiece(index: number): Buffer {
  const piece = Buffer.alloc(SPEECH_PIECE_BYTES)
  for (let offset = 0; offset < piece.length; offset += 1) piece[offset] = (index * 131 + offset * 7) & 0xff
  if (index === 0) ID3.copy(piece)
  return piece
}

/** The whole audio of a speech sent in `pieces` pieces. */
export const speechAudio = (pieces: number): Buffer =>
  Buffer.concat(Array.from({ length: pieces }, (_, index) => speechPiece(index)))

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

export function handleSpeech(
  response: ServerResponse,
  json: Record<string, unknown>,
  model: string,
  faults: FaultPlan,
): Promise<void> | void {
  if (typeof json.input !== 'string' || json.input === '') {
    sendError(response, 400, model, {
      error: {
        message: "Missing required parameter: 'input'.",
        type: 'invalid_request_error',
        param: 'input',
        code: 'missing_required_parameter',
      },
    })
    return
  }
  const format = typeof json.response_format === 'string' ? json.response_format : 'mp3'
  if (json.stream_format === 'sse') {
    return writeStream(
      response,
      faults.streamError ? SPEECH_STREAM_ERROR : speechEvents(json, faults),
      faults,
    )
  }
  const contentType = AUDIO_TYPES[format] ?? 'audio/mpeg'
  const inPieces =
    faults.chunks !== undefined || faults.chunkDelayMs !== undefined || faults.cutAfterChunks !== undefined
  if (!inPieces) return sendJson(response, 200, AUDIO, contentType)
  return writeAudio(response, contentType, faults)
}

/** The `stream-error` directive: a 200 event stream whose only event is an error. */
const SPEECH_STREAM_ERROR = script(
  1,
  () =>
    `data: ${JSON.stringify({
      type: 'error',
      error: { message: 'The server had an error while processing your request.', type: 'server_error' },
    })}\n\n`,
)

/** One `speech.audio.delta` per piece of audio, then `speech.audio.done` with the usage. */
function speechEvents(json: Record<string, unknown>, faults: FaultPlan): StreamScript {
  const pieces = faults.chunks ?? DEFAULT_CHUNKS
  const inputTokens = faults.promptTokens ?? promptTokensOf(json)
  const outputTokens = pieces * SPEECH_TOKENS_PER_PIECE
  const done = {
    type: 'speech.audio.done',
    usage: {
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    },
  }
  const event = (index: number) =>
    index < pieces
      ? `data: ${JSON.stringify({ type: 'speech.audio.delta', audio: speechPiece(index).toString('base64') })}\n\n`
      : `data: ${JSON.stringify(done)}\n\n`
  return { length: pieces + 1, event }
}

/** The audio in pieces, `chunk-delay-ms` apart; `cut-after` closes the connection mid-audio. */
async function writeAudio(response: ServerResponse, contentType: string, faults: FaultPlan): Promise<void> {
  response.writeHead(200, { 'content-type': contentType })
  const pieces = faults.chunks ?? DEFAULT_CHUNKS
  const delay = faults.chunkDelayMs ?? 0
  const limit = Math.min(faults.cutAfterChunks ?? pieces, pieces)
  for (let index = 0; index < limit && !response.destroyed; index += 1) {
    if (index > 0 && delay > 0) await sleep(delay)
    if (response.destroyed) return
    if (!response.write(speechPiece(index))) await drained(response)
  }
  if (response.destroyed) return
  if (limit < pieces) {
    // As a stream cut short: no last chunk, the connection closes mid-body.
    response.socket?.end()
    return
  }
  response.end()
}
