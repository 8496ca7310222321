/**
 * Reads non-stream upstream replies of OpenAI-format channels. The body for the client is always the
 * upstream bytes untouched; only usage and (when usage is missing) the generated text are extracted.
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { isRecord } from '../shared/json.ts'
import { objectsHeldBy } from '../shared/json-scan.ts'
import { localError, mapUpstreamError, nonStreamReply, readJsonObject } from '../shared/upstream-error.ts'
import { hasTokens, normaliseUsage, readUsageObject, UNREADABLE, type Usage } from '../shared/usage.ts'
import { parseRerankResponse } from './rerank.ts'

export function headerValue(headers: UpstreamResponse['headers'], name: string): string {
  const value = headers[name]
  return (Array.isArray(value) ? value[0] : value) ?? ''
}

const isJson = (contentType: string): boolean => contentType.toLowerCase().includes('json')

/**
 * Text of the generated choices, for a local token count: for chat the content,
 * a refusal, the reasoning some providers return as `reasoning_content`, and the arguments of tool
 * and function calls (one-api counted the content alone, so tool calls were free).
 */
function choicesText(json: Record<string, unknown>, mode: RelayRequest['mode']): string {
  if (!Array.isArray(json.choices)) return ''
  let text = ''
  const add = (value: unknown) => {
    if (typeof value === 'string') text += value
  }
  for (const choice of json.choices) {
    if (!isRecord(choice)) continue
    if (mode !== 'chat' || !isRecord(choice.message)) {
      add(choice.text)
      continue
    }
    const message = choice.message
    add(message.content)
    add(message.refusal)
    add(message.reasoning_content)
    if (isRecord(message.function_call)) add(message.function_call.arguments)
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        if (isRecord(call) && isRecord(call.function)) add(call.function.arguments)
      }
    }
  }
  return text
}

/**
 * Plain text of a subtitle file (srt or vtt): cue numbers, timings and the WEBVTT header are not
 * spoken words. https://platform.openai.com/docs/api-reference/audio/createTranscription
 */
export function subtitleText(subtitles: string): string {
  return subtitles
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !/^\d+$/.test(line.trim()) && !line.includes('-->'))
    .filter((line) => !line.startsWith('WEBVTT'))
    .join(' ')
}

/**
 * A streamed transcription (`stream=true` in the upload), relayed as the whole stream once it
 * ended: the text and usage of its `transcript.text.done` event, else the text of its deltas.
 * Reading the event stream as plain text billed its JSON framing as spoken words.
 * https://platform.openai.com/docs/api-reference/audio/transcript-text-done-event
 */
function parseTranscriptionStream(response: UpstreamResponse): ParsedResponse | UpstreamError {
  let deltas = ''
  let done: Record<string, unknown> | undefined
  for (const line of response.body.toString('utf8').split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue
    let event: unknown
    try {
      event = JSON.parse(line.slice(5))
    } catch {
      continue // [DONE] and anything else that is not an event of the API
    }
    if (!isRecord(event)) continue
    if (isRecord(event.error)) return mapUpstreamError(response.status, line.slice(5), response.headers)
    if (event.type === 'transcript.text.delta' && typeof event.delta === 'string') deltas += event.delta
    if (event.type === 'transcript.text.done') done = event
  }
  return {
    kind: 'response',
    body: response.body,
    usage: normaliseUsage(done?.usage),
    completionText: typeof done?.text === 'string' ? done.text : deltas,
  }
}

function parseTranscription(response: UpstreamResponse): ParsedResponse | UpstreamError {
  const contentType = headerValue(response.headers, 'content-type')
  if (contentType.toLowerCase().includes('text/event-stream')) return parseTranscriptionStream(response)
  const text = response.body.toString('utf8')
  if (!isJson(contentType)) {
    // response_format text, srt or vtt
    const spoken = /-->/.test(text) ? subtitleText(text) : text.trim()
    return { kind: 'response', body: response.body, usage: undefined, completionText: spoken }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return localError(502, 'unmarshal_response_body_failed', 'upstream returned invalid JSON', {
      retryable: true,
    })
  }
  if (!isRecord(json)) return { kind: 'response', body: response.body, usage: undefined }
  if (isRecord(json.error)) return mapUpstreamError(response.status, response.body, response.headers)
  return {
    kind: 'response',
    body: response.body,
    // gpt-4o-transcribe reports token usage; whisper-1 reports none (or only a duration).
    usage: normaliseUsage(json.usage),
    completionText: typeof json.text === 'string' ? json.text : undefined,
  }
}

const USAGE_AND_ERROR = ['usage', 'error']

/** The list every successful answer of these modes carries: what the client asked for. */
const ANSWER_LISTS: Partial<Record<RelayRequest['mode'], string>> = {
  chat: 'choices',
  completions: 'choices',
  embeddings: 'data',
  moderations: 'results',
}

/**
 * The usage of a successful reply read without parsing the whole reply (an embeddings reply is
 * mostly numbers): only the usage object is parsed. Undefined, and the reply is parsed in full,
 * when there is no usage with tokens or the reply may carry an error object.
 */
function scannedUsage(body: Buffer): Usage | undefined {
  if (body[0] !== 0x7b) return undefined
  const [usageObjects, errorObjects] = objectsHeldBy(body.toString('latin1'), USAGE_AND_ERROR)
  // The last usage wins, as in JSON.parse.
  const usageStart = usageObjects!.at(-1)
  if (errorObjects!.length > 0 || usageStart === undefined) return undefined
  const usage = readUsageObject(body, usageStart, body.length)
  return usage !== UNREADABLE && hasTokens(usage) ? usage : undefined
}

export function parseOpenAiResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const { status, headers, body } = response
  if (status < 200 || status >= 300) return mapUpstreamError(status, body, headers)
  const contentType = headerValue(headers, 'content-type')
  if (request.mode === 'audio-speech') {
    if (isJson(contentType)) return mapUpstreamError(502, body, headers)
    return { kind: 'response', body, usage: undefined }
  }
  if (request.mode === 'audio-transcription' || request.mode === 'audio-translation') {
    return parseTranscription(response)
  }
  if (request.mode === 'rerank') return parseRerankResponse(response)
  const generates = request.mode === 'chat' || request.mode === 'completions'
  if (!request.stream) {
    const usage = scannedUsage(body)
    // A reply whose usage leaves out its completion count needs its text read, and one that may
    // lack what the client asked for is checked: both are parsed below.
    const complete = !(request.mode in ANSWER_LISTS) || body.includes(`"${ANSWER_LISTS[request.mode]}"`)
    if (usage && complete && !(generates && usage.completionMissing)) return { kind: 'response', body, usage }
  }
  const read = readJsonObject(body)
  if (read.kind === 'error') return read
  const json = read.json
  // OpenAI-compatible servers sometimes answer 200 with an error object.
  if (isRecord(json.error) && (json.error.type || json.error.message)) {
    return mapUpstreamError(status, body, headers)
  }
  // An image model that cannot stream answers a stream request with its images as JSON: the images
  // are made and paid for upstream, so they are passed on as the answer (a failure here was retried
  // on every channel, each making images nobody received).
  if (request.stream && request.mode !== 'images') {
    // The client expects SSE; a JSON reply it cannot read. Another channel may stream properly.
    return nonStreamReply()
  }
  // A success without the answer's list (`{}`, say) is no answer: the client's SDK cannot read
  // it, so it is not billed, and another channel may answer properly.
  const list = ANSWER_LISTS[request.mode]
  if (list && !request.stream && !Array.isArray(json[list])) {
    return localError(502, 'invalid_upstream_response', `upstream returned no ${list} in its answer`, {
      retryable: true,
      type: 'upstream_error',
    })
  }
  const usage = normaliseUsage(json.usage)
  const needsText = generates && (!hasTokens(usage) || usage.completionMissing === true)
  return {
    kind: 'response',
    body,
    usage,
    completionText: needsText ? choicesText(json, request.mode) : undefined,
    imageCount: request.mode === 'images' && Array.isArray(json.data) ? json.data.length : undefined,
  }
}
