/**
 * Zhipu's chat answers and errors in OpenAI's form.
 * https://open.bigmodel.cn/dev/api/normal-model/glm-4
 * https://open.bigmodel.cn/dev/api/error-code/service-error
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { chatCompletionResponse, type ToolCallAnswer } from '../shared/chat-completion.ts'
import { isRecord } from '../shared/json.ts'
import { extractErrorFields, localError, mapUpstreamError, readAnswerJson } from '../shared/upstream-error.ts'
import { normaliseUsage } from '../shared/usage.ts'

/**
 * Zhipu's finish reasons: `sensitive` (stopped by its content moderation) is OpenAI's
 * content_filter; `network_error` (a failure of the model's inference) ends the answer.
 */
export function zhipuFinishReason(reason: unknown): string | null {
  if (reason === 'sensitive') return 'content_filter'
  if (reason === 'network_error') return 'stop'
  return typeof reason === 'string' ? reason : null
}

/** Zhipu's business error codes that stand for an HTTP status of their own. */
const STATUS_OF_CODE: Record<string, number> = {
  // 模型不存在: the model does not exist.
  '1211': 404,
}

/** An error answer of Zhipu (`{"error":{"code":"1002","message":...}}`) for retry and disabling. */
export function zhipuError(response: UpstreamResponse): UpstreamError {
  const { status, body, headers } = response
  const code = extractErrorFields(status, body).code
  return mapUpstreamError(STATUS_OF_CODE[String(code)] ?? status, body, headers)
}

function toolCalls(message: Record<string, unknown>): ToolCallAnswer[] {
  if (!Array.isArray(message.tool_calls)) return []
  return message.tool_calls.filter(isRecord).map((call) => {
    const fn = isRecord(call.function) ? call.function : {}
    return { id: String(call.id ?? ''), name: String(fn.name ?? ''), arguments: String(fn.arguments ?? '{}') }
  })
}

export function parseZhipuChat(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  if (response.status < 200 || response.status >= 300) return zhipuError(response)
  const parsed = readAnswerJson(response)
  if (parsed.kind === 'error') return parsed
  const { json } = parsed
  if (isRecord(json.error)) return zhipuError({ ...response, status: 500 })
  const choice = Array.isArray(json.choices) && isRecord(json.choices[0]) ? json.choices[0] : undefined
  const message = choice && isRecord(choice.message) ? choice.message : undefined
  if (!choice || !message) {
    return localError(502, 'invalid_upstream_response', 'upstream returned no choices in its answer', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  if (choice.finish_reason === 'network_error') {
    return localError(
      502,
      'upstream_inference_error',
      'Zhipu reported a failure of the model (network_error)',
      {
        retryable: true,
        type: 'upstream_error',
      },
    )
  }
  return chatCompletionResponse(
    {
      id: typeof json.id === 'string' ? json.id : undefined,
      model: typeof json.model === 'string' ? json.model : undefined,
      text: typeof message.content === 'string' ? message.content : '',
      reasoning: typeof message.reasoning_content === 'string' ? message.reasoning_content : undefined,
      toolCalls: toolCalls(message),
      finishReason: zhipuFinishReason(choice.finish_reason) ?? 'stop',
      usage: normaliseUsage(json.usage),
    },
    request,
  )
}
