/**
 * Decides whether the client's body can go upstream as the original bytes (so fields this gateway
 * does not know survive) or must be re-serialised because the adaptor has to change it.
 */
import type { RelayRequest } from '../adaptor.ts'
import { isRecord } from '../shared/json.ts'
import { withMembers } from '../shared/json-members.ts'
import { isJsonWhitespace } from '../shared/json-scan.ts'
import { readMultipartField, setMultipartField } from '../shared/multipart.ts'

export interface PreparedBody {
  readonly body: Buffer | string
  readonly contentType: string | undefined
  readonly rewritten: boolean
  /** The adaptor asked for usage on the client's behalf; the usage-only chunk must be dropped. */
  readonly dropUsageChunk: boolean
}

/** Whether the client itself set stream_options.include_usage. */
export function clientAskedForUsage(request: RelayRequest): boolean {
  if (request.clientWantsUsage) return true
  const options = request.json?.stream_options
  return isRecord(options) && options.include_usage === true
}

/**
 * The forced system prompt replaces the first system (or developer, its o-series name) message,
 * else it is prepended, as one-api does.
 * https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
export function withSystemPrompt(messages: unknown, prompt: string): unknown[] {
  const list = Array.isArray(messages) ? messages : []
  const first = list[0]
  if (isRecord(first) && (first.role === 'system' || first.role === 'developer')) {
    return [{ ...first, content: prompt }, ...list.slice(1)]
  }
  return [{ role: 'system', content: prompt }, ...list]
}

const USAGE_OPTION = Buffer.from('"stream_options":{"include_usage":true},')

/**
 * The client's bytes with `"stream_options":{"include_usage":true}` added as the object's first
 * member: cheaper than re-serialising a large prompt, and every byte the client sent survives.
 * Only for a non-empty object without stream_options (the caller checks the latter); otherwise
 * undefined.
 */
function withUsageOption(body: Buffer): Buffer | undefined {
  let open = 0
  while (isJsonWhitespace(body[open])) open += 1
  if (body[open] !== 0x7b) return undefined
  let next = open + 1
  while (isJsonWhitespace(body[next])) next += 1
  if (next >= body.length || body[next] === 0x7d) return undefined
  return Buffer.concat([body.subarray(0, open + 1), USAGE_OPTION, body.subarray(open + 1)])
}

export function prepareBody(request: RelayRequest): PreparedBody {
  const modelChanged = request.mappedModel !== request.requestedModel
  const original: PreparedBody = {
    body: request.body,
    // A body read as JSON is sent as JSON, whatever the client labelled it (a speech request sent
    // as a form went upstream with that label, and was refused there).
    contentType: request.json === undefined ? request.contentType : 'application/json',
    rewritten: false,
    dropUsageChunk: false,
  }
  const json = request.json
  if (json === undefined) {
    // A multipart upload: the model field gets the model billed, as a JSON body does, also when
    // the client sent none (the upstream would otherwise refuse it, or pick its own).
    if (!modelChanged && readMultipartField(request.body, request.contentType, 'model')) return original
    const set = setMultipartField(request.body, request.contentType, 'model', request.mappedModel)
    return set ? { ...original, body: set, rewritten: true } : original
  }
  // Without include_usage, OpenAI streams carry no usage and billing would fall back to local
  // counting. https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options
  const forceUsage =
    request.stream &&
    (request.mode === 'chat' || request.mode === 'completions') &&
    !clientAskedForUsage(request)
  const forcePrompt = request.mode === 'chat' && Boolean(request.systemPrompt)
  // A body that names no model (a default, or the engines path's) gets the one billed, so the
  // upstream serves what the client pays for rather than a default of its own.
  const modelMissing = json.model === undefined || json.model === null || json.model === ''
  if (!modelChanged && !forceUsage && !forcePrompt && !modelMissing) return original
  if (!modelChanged && !modelMissing && !forcePrompt && json.stream_options === undefined) {
    const spliced = withUsageOption(request.body)
    if (spliced) return { ...original, body: spliced, rewritten: true, dropUsageChunk: true }
  }

  // Only the members that change are written anew; the client's other bytes go as they came.
  const members: Record<string, unknown> = {}
  if (modelChanged || modelMissing) members.model = request.mappedModel
  if (forceUsage) {
    const options = isRecord(json.stream_options) ? json.stream_options : {}
    members.stream_options = { ...options, include_usage: true }
  }
  if (forcePrompt) members.messages = withSystemPrompt(json.messages, request.systemPrompt as string)
  const texts = Object.fromEntries(
    Object.entries(members).map(([key, value]) => [key, JSON.stringify(value)]),
  )
  return {
    body: withMembers(request.body, texts) ?? JSON.stringify({ ...json, ...members }),
    contentType: 'application/json',
    rewritten: true,
    dropUsageChunk: forceUsage,
  }
}
