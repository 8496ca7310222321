/**
 * DeepL channels (type 38): translation served as a chat model, as one-api does. The model
 * `deepl-<lang>` names the target language (`deepl-zh` → ZH, `deepl-en-us` → EN-US; `deepl` alone
 * → ZH); the text translated is the last message's; system messages and earlier turns are sent as
 * DeepL's `context` (read for meaning, not translated, not billed by DeepL). The key goes as
 * `Authorization: DeepL-Auth-Key <key>` to `{base}/v2/translate`.
 * Billing: the prompt is the number of characters translated (DeepL's own unit; one-api counted
 * UTF-8 bytes, which differs for non-Latin text), the completion 0; the model's price sets the rate.
 * DeepL does not stream: a stream request gets the translation as one chunk, then [DONE].
 * https://developers.deepl.com/api-reference/translate
 */
import type {
  Adaptor,
  ChannelCredentials,
  ParsedResponse,
  RelayRequest,
  StreamTransformer,
  UpstreamError,
  UpstreamRequest,
  UpstreamResponse,
} from '../adaptor.ts'
import { chatCompletionResponse, openAiTokenCounts } from '../shared/chat-completion.ts'
import { isRecord } from '../shared/json.ts'
import { DONE_EVENT } from '../shared/openai-stream.ts'
import { localError, mapUpstreamError, readAnswerJson } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'

export const DEEPL_DEFAULT_BASE_URL = 'https://api-free.deepl.com'
const PREFIX = 'deepl-'

/** The target language of a model name, as one-api reads it. */
export function targetLanguage(model: string): string {
  return model.startsWith(PREFIX) && model.length > PREFIX.length
    ? model.slice(PREFIX.length).toUpperCase()
    : 'ZH'
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((part) => isRecord(part) && part.type === 'text')
    .map((part) => String((part as Record<string, unknown>).text ?? ''))
    .join('')
}

/** The characters of a text, as DeepL counts them (code points). */
export const characters = (text: string): number => [...text].length

function translateBody(request: RelayRequest): { text: string; body: Record<string, unknown> } {
  const messages = Array.isArray(request.json?.messages) ? request.json.messages.filter(isRecord) : []
  const last = messages.at(-1)
  const text = last ? textOf(last.content) : ''
  const context = [
    request.systemPrompt ?? '',
    ...messages.slice(0, -1).map((message) => textOf(message.content)),
  ]
    .filter((part) => part !== '')
    .join('\n')
  const body: Record<string, unknown> = { text: [text], target_lang: targetLanguage(request.mappedModel) }
  if (context) body.context = context
  return { text, body }
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  if (request.mode !== 'chat' || !request.json) {
    return localError(
      400,
      'unsupported_relay_mode',
      'DeepL channels serve translation as chat completions only',
      {
        retryable: true,
        type: 'invalid_request_error',
      },
    )
  }
  return {
    kind: 'request',
    url: `${(channel.baseUrl || DEEPL_DEFAULT_BASE_URL).replace(/\/+$/, '')}/v2/translate`,
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      Authorization: `DeepL-Auth-Key ${channel.key}`,
    },
    body: JSON.stringify(translateBody(request).body),
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

/** DeepL's statuses: 403 is a refused key, 456 the account's exhausted quota. */
function deeplError(response: UpstreamResponse): UpstreamError {
  const { status, body, headers } = response
  let message = `DeepL error ${status}`
  try {
    const json: unknown = JSON.parse(body.toString('utf8'))
    if (isRecord(json) && typeof json.message === 'string') message = json.message
  } catch {
    // the status alone
  }
  if (status === 403)
    return mapUpstreamError(
      401,
      JSON.stringify({ error: { message, type: 'authentication_error' } }),
      headers,
    )
  if (status === 456)
    return mapUpstreamError(429, JSON.stringify({ error: { message, type: 'insufficient_quota' } }), headers)
  return mapUpstreamError(
    status,
    JSON.stringify({ error: { message, type: status >= 500 ? 'upstream_error' : 'invalid_request_error' } }),
    headers,
  )
}

function streamOf(parsed: ParsedResponse, request: RelayRequest, usage: Usage): ParsedResponse {
  const completion = JSON.parse(parsed.body.toString('utf8'))
  const head = {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
  }
  const content = completion.choices[0].message.content
  let events = `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content }, logprobs: null, finish_reason: 'stop' }] })}\n\n`
  if (request.clientWantsUsage)
    events += `data: ${JSON.stringify({ ...head, choices: [], usage: openAiTokenCounts(usage) })}\n\n`
  return { ...parsed, body: Buffer.from(events + DONE_EVENT), contentType: 'text/event-stream' }
}

function parseResponse(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  if (response.status < 200 || response.status >= 300) return deeplError(response)
  const parsed = readAnswerJson(response)
  if (parsed.kind === 'error') return parsed
  const translations = Array.isArray(parsed.json.translations)
    ? parsed.json.translations.filter(isRecord)
    : []
  const translated = translations.map((entry) => String(entry.text ?? '')).join('')
  const prompt = characters(translateBody(request).text)
  const usage: Usage = {
    promptTokens: prompt,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    totalTokens: prompt,
  }
  const answer = chatCompletionResponse({ text: translated, finishReason: 'stop', usage }, request)
  return request.stream ? streamOf(answer, request, usage) : answer
}

/** Never used: DeepL answers JSON, which the pipeline reads whole (parseResponse builds the stream). */
const noStream: StreamTransformer = {
  push: () => '',
  finish: () => '',
  usage: undefined,
  completionText: '',
  completionTextLength: 0,
  upstreamCompleted: false,
  answered: false,
  keepAlives: 0,
  streamError: undefined,
}

export const deeplAdaptor: Adaptor = {
  name: 'deepl',
  buildRequest,
  parseResponse,
  createStreamTransformer: () => noStream,
}
