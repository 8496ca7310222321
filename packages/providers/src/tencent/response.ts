/**
 * Hunyuan's ChatCompletions answers (`{"Response":{...}}`) and errors. Tencent Cloud answers its
 * errors with HTTP 200 and `Response.Error.Code`; the code decides the status the client gets and
 * whether the channel is to blame.
 * https://cloud.tencent.com/document/api/1729/105701
 * https://cloud.tencent.com/document/api/1729/101842 (common error codes)
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { chatCompletionResponse, usageOf } from '../shared/chat-completion.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { mapUpstreamError, readJsonObject } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'

/** Hunyuan's FinishReason: `sensitive` (stopped by moderation) is OpenAI's content_filter. */
export function hunyuanFinishReason(reason: unknown): string | null {
  if (reason === 'sensitive') return 'content_filter'
  return typeof reason === 'string' && reason !== '' ? reason : null
}

export const hunyuanUsage = (raw: unknown): Usage | undefined =>
  isRecord(raw) ? usageOf(raw.PromptTokens, raw.CompletionTokens, raw.TotalTokens) : undefined

/** The status and OpenAI error type of a Tencent Cloud error code. */
function classify(code: string): [number, string] {
  if (code.startsWith('AuthFailure')) return [401, 'authentication_error']
  if (
    code.startsWith('ResourceInsufficient') ||
    code === 'FailedOperation.ServiceNotActivated' ||
    code.startsWith('ResourceUnavailable')
  ) {
    return [403, 'insufficient_quota']
  }
  if (code.startsWith('ResourceNotFound') || code === 'InvalidParameterValue.Model')
    return [404, 'invalid_request_error']
  if (code.startsWith('RequestLimitExceeded') || code.startsWith('LimitExceeded'))
    return [429, 'rate_limit_error']
  if (code.startsWith('InternalError') || code.startsWith('FailedOperation')) return [500, 'upstream_error']
  return [400, 'invalid_request_error']
}

/** A Tencent Cloud error object as an UpstreamError. */
export function hunyuanError(error: Json, response: UpstreamResponse): UpstreamError {
  const code = String(error.Code ?? 'InternalError')
  const [status, type] = classify(code)
  const message = typeof error.Message === 'string' && error.Message !== '' ? error.Message : code
  const body = JSON.stringify({ error: { message, type, param: null, code } })
  return mapUpstreamError(status, body, response.headers)
}

/** The `Response` of a Hunyuan reply, or the error it is (a 2xx carrying Response.Error included). */
export function hunyuanResponse(response: UpstreamResponse): { kind: 'json'; json: Json } | UpstreamError {
  const parsed = readJsonObject(response.body)
  if (parsed.kind === 'error')
    return response.status >= 300
      ? mapUpstreamError(response.status, response.body, response.headers)
      : parsed
  const inner = isRecord(parsed.json.Response) ? parsed.json.Response : parsed.json
  if (isRecord(inner.Error)) return hunyuanError(inner.Error, response)
  if (response.status < 200 || response.status >= 300)
    return mapUpstreamError(response.status, response.body, response.headers)
  return { kind: 'json', json: inner }
}

function toolCalls(message: Json) {
  if (!Array.isArray(message.ToolCalls)) return []
  return message.ToolCalls.filter(isRecord).map((call) => {
    const fn = isRecord(call.Function) ? call.Function : {}
    return { id: String(call.Id ?? ''), name: String(fn.Name ?? ''), arguments: String(fn.Arguments ?? '{}') }
  })
}

export function parseHunyuanResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const parsed = hunyuanResponse(response)
  if (parsed.kind === 'error') return parsed
  const { json } = parsed
  const choice = Array.isArray(json.Choices) && isRecord(json.Choices[0]) ? json.Choices[0] : {}
  const message = isRecord(choice.Message) ? choice.Message : {}
  return chatCompletionResponse(
    {
      id: typeof json.Id === 'string' ? json.Id : undefined,
      text: typeof message.Content === 'string' ? message.Content : '',
      reasoning: typeof message.ReasoningContent === 'string' ? message.ReasoningContent : undefined,
      toolCalls: toolCalls(message),
      finishReason: hunyuanFinishReason(choice.FinishReason) ?? 'stop',
      usage: hunyuanUsage(json.Usage),
    },
    request,
  )
}
