/**
 * A whole Coze answer: the v3 event stream read to its end and given as one chat completion; a
 * JSON body is Coze's error (`{"code":4100,"msg":...}`, answered with HTTP 200).
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { chatCompletionResponse } from '../shared/chat-completion.ts'
import { isRecord } from '../shared/json.ts'
import { SseParser } from '../shared/sse.ts'
import { localError, mapUpstreamError } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { readCozeEvent, statusOfCozeCode } from './events.ts'

/** A Coze error code and message as an UpstreamError. */
export function cozeError(
  code: number,
  message: string,
  response: Pick<UpstreamResponse, 'headers'>,
): UpstreamError {
  const status = statusOfCozeCode(code)
  const type =
    status === 401 ? 'authentication_error' : status >= 500 ? 'upstream_error' : 'invalid_request_error'
  return mapUpstreamError(
    status,
    JSON.stringify({ error: { message, type, param: null, code } }),
    response.headers,
  )
}

function jsonError(response: UpstreamResponse): UpstreamError | undefined {
  const text = response.body.toString('utf8').trimStart()
  if (!text.startsWith('{')) return undefined
  try {
    const json: unknown = JSON.parse(text)
    if (isRecord(json) && typeof json.code === 'number' && json.code !== 0) {
      return cozeError(json.code, String(json.msg || `Coze error ${json.code}`), response)
    }
  } catch {
    // not JSON: read as a stream
  }
  return undefined
}

export function parseCozeResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  if (response.status < 200 || response.status >= 300) {
    return jsonError(response) ?? mapUpstreamError(response.status, response.body, response.headers)
  }
  const error = jsonError(response)
  if (error) return error
  let text = ''
  let usage: Usage | undefined
  let id: string | undefined
  let completed = false
  let failure: UpstreamError | undefined
  const parser = new SseParser((event) => {
    const read = readCozeEvent(event)
    if (read.kind === 'delta') text += read.text
    else if (read.kind === 'completed') {
      completed = true
      usage = read.usage
      id = read.chatId
    } else if (read.kind === 'failed') failure ??= cozeError(read.code, read.message, response)
  })
  parser.push(response.body)
  parser.end()
  if (failure) return failure
  if (!completed) {
    return localError(502, 'invalid_upstream_response', 'the Coze chat ended before it completed', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  return chatCompletionResponse({ id, text, finishReason: 'stop', usage }, request)
}
