/**
 * Coze's v3 chat as its API checks and answers it: a known personal access token after Bearer
 * (else 401 with code 4100), bot_id and user_id required (else code 4000 with HTTP 200), and
 * the answer always as the v3 event stream: chat created, answer deltas, the answer completed,
 * chat completed with its usage, done.
 * https://www.coze.com/docs/developer_guides/chat_v3
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { sendJson } from '../errors.ts'
import type { FaultPlan } from '../faults.ts'
import type { Json } from '../json.ts'
import { writeStream } from '../stream-writer.ts'
import { completionPieces, generatedText, piece } from '../usage-rules.ts'
import { COZE_TOKENS } from './credentials.ts'
import type { Refusal } from './zhipu.ts'

const tokens = new Set(COZE_TOKENS)

export function refuseCozeAuth(headers: IncomingHttpHeaders): Refusal | undefined {
  const token = headers.authorization?.replace(/^Bearer\s+/i, '')
  if (token && tokens.has(token)) return undefined
  return { status: 401, body: JSON.stringify({ code: 4100, msg: 'authentication is invalid' }) }
}

const words = (text: unknown): number =>
  typeof text === 'string' && text.trim() !== '' ? text.trim().split(/\s+/).length : 0

export function handleCoze(response: ServerResponse, json: Json, faults: FaultPlan): Promise<void> | void {
  const messages = Array.isArray(json.additional_messages) ? (json.additional_messages as Json[]) : []
  if (
    typeof json.bot_id !== 'string' ||
    json.bot_id === '' ||
    typeof json.user_id !== 'string' ||
    json.user_id === ''
  ) {
    return sendJson(
      response,
      200,
      JSON.stringify({
        code: 4000,
        msg: 'The requested API parameter is invalid: bot_id and user_id are required.',
      }),
    )
  }
  if (json.stream !== true) {
    return sendJson(response, 200, JSON.stringify({ code: 4000, msg: 'The mock serves stream chats only.' }))
  }
  const prompt = Math.max(
    1,
    messages.reduce((sum, message) => sum + words(message.content), 0),
  )
  const { pieces } = completionPieces({}, faults.chunks)
  const chat = { id: '7382159487131697202', conversation_id: '7381473525342978089', bot_id: json.bot_id }
  const message = {
    ...chat,
    id: '7382159494123470858',
    chat_id: chat.id,
    role: 'assistant',
    content_type: 'text',
  }
  const event = (name: string, data: unknown) => `event:${name}\ndata:${JSON.stringify(data)}\n\n`
  const events = [
    event('conversation.chat.created', { ...chat, status: 'created' }),
    ...Array.from({ length: pieces }, (_, index) =>
      event('conversation.message.delta', { ...message, type: 'answer', content: piece(index) }),
    ),
    event('conversation.message.completed', { ...message, type: 'answer', content: generatedText(pieces) }),
    event('conversation.chat.completed', {
      ...chat,
      status: 'completed',
      usage: { token_count: prompt + pieces, output_count: pieces, input_count: prompt },
    }),
    event('done', '[DONE]'),
  ]
  return writeStream(response, { length: events.length, event: (index) => events[index]! }, faults)
}
