/**
 * AI Proxy Library channels (type 21): knowledge-base questions, as one-api asks them. The last
 * message is the `query` put to the library named by the channel's config `library_id` (the legacy
 * `other` column in one-api databases), at `{base}/api/library/ask` with the key as Bearer. The
 * answer's documents are appended to it as a list of Markdown links, as one-api shows them. The
 * library reports no token usage: the gateway counts the question and the answer itself.
 * https://docs.aiproxy.io/dev/library#问答 (one-api's relay/adaptor/aiproxy)
 */
import type {
  Adaptor,
  ChannelCredentials,
  ParsedResponse,
  RelayRequest,
  UpstreamError,
  UpstreamRequest,
  UpstreamResponse,
} from '../adaptor.ts'
import { chatCompletionResponse } from '../shared/chat-completion.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { EndingSseChatStream } from '../shared/sse-chat-stream.ts'
import { localError, mapUpstreamError, readJsonObject } from '../shared/upstream-error.ts'

export const AIPROXY_DEFAULT_BASE_URL = 'https://api.aiproxy.io'

function libraryId(channel: ChannelCredentials): string | undefined {
  const configured = channel.config?.library_id
  if (typeof configured === 'string' && configured.trim() !== '') return configured.trim()
  return channel.other?.trim() || undefined
}

function lastText(request: RelayRequest): string {
  const messages = Array.isArray(request.json?.messages) ? request.json.messages.filter(isRecord) : []
  const content = messages.at(-1)?.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((part) => isRecord(part) && part.type === 'text')
    .map((part) => String((part as Record<string, unknown>).text ?? ''))
    .join('')
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  if (request.mode !== 'chat' || !request.json) {
    return localError(
      400,
      'unsupported_relay_mode',
      'AI Proxy Library channels answer chat completions only',
      {
        retryable: true,
        type: 'invalid_request_error',
      },
    )
  }
  const library = libraryId(channel)
  if (!library) {
    return localError(500, 'channel_config_missing', 'the AI Proxy Library channel needs its library id', {
      retryable: true,
    })
  }
  const body = {
    model: request.mappedModel,
    query: lastText(request),
    libraryId: library,
    stream: request.stream,
  }
  return {
    kind: 'request',
    url: `${(channel.baseUrl || AIPROXY_DEFAULT_BASE_URL).replace(/\/+$/, '')}/api/library/ask`,
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: request.stream ? 'text/event-stream' : 'application/json',
      Authorization: `Bearer ${channel.key}`,
    },
    body: JSON.stringify(body),
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

/** The documents of an answer as one-api appends them: a Markdown list of links. */
export function documentsText(documents: unknown): string {
  if (!Array.isArray(documents) || documents.length === 0) return ''
  const lines = documents
    .filter(isRecord)
    .map((document) => `[${String(document.title ?? '')}](${String(document.url ?? '')})`)
  return lines.length > 0 ? `\n\n参考文档：\n${lines.map((line) => `- ${line}`).join('\n')}` : ''
}

function libraryError(json: Record<string, unknown>, response: UpstreamResponse): UpstreamError {
  const status = Math.max(response.status, 400)
  const message =
    typeof json.errMsg === 'string' && json.errMsg !== '' ? json.errMsg : 'the library refused the question'
  const type =
    status === 401 ? 'authentication_error' : status >= 500 ? 'upstream_error' : 'invalid_request_error'
  return mapUpstreamError(
    status,
    JSON.stringify({ error: { message, type, param: null, code: json.errCode ?? null } }),
    response.headers,
  )
}

function parseResponse(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  const parsed = readJsonObject(response.body)
  if (parsed.kind === 'error') {
    return response.status >= 300
      ? mapUpstreamError(response.status, response.body, response.headers)
      : parsed
  }
  const { json } = parsed
  if (response.status >= 300 || json.success === false) return libraryError(json, response)
  const text = (typeof json.answer === 'string' ? json.answer : '') + documentsText(json.documents)
  return chatCompletionResponse({ text, finishReason: 'stop', usage: undefined }, request)
}

/** The library's stream: `{"content","finish","documents"}` events, the last with finish true. */
class LibraryStream extends EndingSseChatStream {
  protected onData(json: Json): void {
    if (typeof json.content === 'string') this.writer.text('content', json.content)
    if (json.finish === true) {
      this.writer.text('content', documentsText(json.documents))
      this.writer.finishReason('stop')
      this.writer.end()
    }
  }
}

export const aiProxyLibraryAdaptor: Adaptor = {
  name: 'aiproxy-library',
  buildRequest,
  parseResponse,
  createStreamTransformer: (request) => new LibraryStream(request),
}
