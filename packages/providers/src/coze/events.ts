/**
 * Coze's v3 chat event stream read once, for a stream (stream.ts) and for a whole answer
 * (response.ts): answer deltas, the chat's completion with its usage, failures.
 * https://www.coze.com/docs/developer_guides/chat_v3 (streaming response)
 */
import { usageOf } from '../shared/chat-completion.ts'
import { isRecord } from '../shared/json.ts'
import type { SseEvent } from '../shared/sse.ts'
import type { Usage } from '../shared/usage.ts'

export type CozeEvent =
  | { kind: 'delta'; text: string; chatId?: string }
  | { kind: 'completed'; usage: Usage | undefined; chatId?: string }
  | { kind: 'failed'; code: number; message: string }
  | { kind: 'done' }
  | { kind: 'other' }

/** The status a Coze error code stands for. https://www.coze.com/docs/developer_guides/coze_error_codes */
export function statusOfCozeCode(code: number): number {
  if (code === 4100 || code === 4101) return 401
  if (code === 4200) return 404
  if (code === 4013 || code === 4019) return 429
  if (code >= 5000) return 500
  return 400
}

export function readCozeEvent(event: SseEvent): CozeEvent {
  if (event.event === 'done') return { kind: 'done' }
  let data: unknown
  try {
    data = JSON.parse(event.data)
  } catch {
    return { kind: 'other' }
  }
  if (!isRecord(data)) return { kind: 'other' }
  const chatId =
    typeof data.chat_id === 'string' ? data.chat_id : typeof data.id === 'string' ? data.id : undefined
  switch (event.event) {
    case 'conversation.message.delta':
      return data.type === 'answer' && typeof data.content === 'string'
        ? { kind: 'delta', text: data.content, chatId }
        : { kind: 'other' }
    case 'conversation.chat.completed': {
      const usage = isRecord(data.usage)
        ? usageOf(data.usage.input_count, data.usage.output_count, data.usage.token_count)
        : undefined
      return { kind: 'completed', usage, chatId }
    }
    case 'conversation.chat.failed': {
      const error = isRecord(data.last_error) ? data.last_error : {}
      return {
        kind: 'failed',
        code: Number(error.code ?? 5000),
        message: String(error.msg || 'the Coze chat failed'),
      }
    }
    case 'error':
      return { kind: 'failed', code: Number(data.code ?? 5000), message: String(data.msg || 'Coze error') }
    default:
      return { kind: 'other' }
  }
}
