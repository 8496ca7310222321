/**
 * Baidu Qianfan v1 answers and errors. Errors come with HTTP 200 as `{"error_code","error_msg"}`;
 * codes 110 and 111 (the access token is invalid or expired) disable the attempt's credential, so
 * the pipeline obtains a new token and tries once more.
 * https://cloud.baidu.com/doc/WENXINWORKSHOP/s/tlmyncueh (error codes)
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { chatCompletionResponse } from '../shared/chat-completion.ts'
import type { Json } from '../shared/json.ts'
import { mapUpstreamError, readJsonObject } from '../shared/upstream-error.ts'
import { normaliseUsage } from '../shared/usage.ts'

/** Baidu's finish_reason: `normal` and `stop` end the answer; the others are OpenAI's names. */
export function baiduFinishReason(reason: unknown): string | null {
  if (reason === 'normal' || reason === 'stop') return 'stop'
  if (reason === 'length' || reason === 'content_filter') return reason
  if (reason === 'function_call') return 'tool_calls'
  return typeof reason === 'string' && reason !== '' ? 'stop' : null
}

function classify(code: number): [number, string] {
  if (code === 110 || code === 111 || code === 14) return [401, 'authentication_error']
  if (code === 6 || code === 17 || code === 19) return [403, 'insufficient_quota']
  if (code === 3) return [404, 'invalid_request_error']
  if (code === 4 || code === 18 || code === 336501 || code === 336502) return [429, 'rate_limit_error']
  if (code === 1 || code === 2 || code === 336000 || code === 336100) return [500, 'upstream_error']
  return [400, 'invalid_request_error']
}

/** A Baidu error object as an UpstreamError. */
export function baiduError(json: Json, response: Pick<UpstreamResponse, 'headers'>): UpstreamError {
  const code = Number(json.error_code)
  const [status, type] = classify(code)
  const message =
    typeof json.error_msg === 'string' && json.error_msg !== '' ? json.error_msg : `Baidu error ${code}`
  return mapUpstreamError(
    status,
    JSON.stringify({ error: { message, type, param: null, code } }),
    response.headers,
  )
}

/** The JSON of a Baidu answer, or the error it is. */
export function baiduJson(response: UpstreamResponse): { kind: 'json'; json: Json } | UpstreamError {
  const parsed = readJsonObject(response.body)
  if (parsed.kind === 'error') {
    return response.status >= 300
      ? mapUpstreamError(response.status, response.body, response.headers)
      : parsed
  }
  if (parsed.json.error_code !== undefined && parsed.json.error_code !== 0)
    return baiduError(parsed.json, response)
  if (response.status < 200 || response.status >= 300) {
    return mapUpstreamError(response.status, response.body, response.headers)
  }
  return parsed
}

export function parseBaiduResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const parsed = baiduJson(response)
  if (parsed.kind === 'error') return parsed
  const { json } = parsed
  const usage = normaliseUsage(json.usage)
  if (request.mode === 'embeddings') {
    const data = Array.isArray(json.data) ? json.data : []
    const body = { object: 'list', data, model: request.mappedModel, usage: json.usage ?? {} }
    return {
      kind: 'response',
      body: Buffer.from(JSON.stringify(body)),
      usage,
      contentType: 'application/json',
    }
  }
  // An answer Baidu withheld for its content asks the client to clear the history.
  const filtered = json.need_clear_history === true
  return chatCompletionResponse(
    {
      id: typeof json.id === 'string' ? json.id : undefined,
      text: typeof json.result === 'string' ? json.result : '',
      finishReason: filtered ? 'content_filter' : (baiduFinishReason(json.finish_reason) ?? 'stop'),
      usage,
    },
    request,
  )
}
