/**
 * An OpenAI chat request as Coze's v3 chat input: the bot from the model name (`bot-<bot id>`),
 * the user from the channel's config, the conversation as `additional_messages`. Coze bots carry
 * their own persona, so a system message is sent as the first user message; image parts make a
 * message `object_string` content with `file_url` items.
 * https://www.coze.com/docs/developer_guides/chat_v3
 */
import { withSystemPrompt } from '../openai-compatible/request-body.ts'
import { isRecord, type Json } from '../shared/json.ts'

export const BOT_PREFIX = 'bot-'

function objectString(parts: unknown[]): string {
  const items: Json[] = []
  for (const part of parts) {
    if (!isRecord(part)) continue
    if (part.type === 'text') items.push({ type: 'text', text: part.text })
    else if (part.type === 'image_url') {
      const url = isRecord(part.image_url) ? part.image_url.url : part.image_url
      items.push({ type: 'image', file_url: url })
    }
  }
  return JSON.stringify(items)
}

function message(input: Json): Json {
  const assistant = input.role === 'assistant'
  const role = assistant ? 'assistant' : 'user'
  const type = assistant ? 'answer' : 'question'
  if (Array.isArray(input.content)) {
    const images = input.content.some((part) => isRecord(part) && part.type === 'image_url')
    if (images) return { role, type, content: objectString(input.content), content_type: 'object_string' }
    const text = input.content
      .filter((part) => isRecord(part) && part.type === 'text')
      .map((part) => String((part as Json).text ?? ''))
      .join('')
    return { role, type, content: text, content_type: 'text' }
  }
  return { role, type, content: typeof input.content === 'string' ? input.content : '', content_type: 'text' }
}

export function cozeBody(json: Json, botId: string, userId: string, systemPrompt?: string): Json {
  const messages = systemPrompt ? withSystemPrompt(json.messages, systemPrompt) : json.messages
  return {
    bot_id: botId,
    user_id: userId,
    // Always streamed: a non-stream v3 chat only starts the chat (its answer must be polled for),
    // so a non-stream client's answer is gathered from the stream.
    stream: true,
    auto_save_history: false,
    additional_messages: (Array.isArray(messages) ? messages : []).filter(isRecord).map(message),
  }
}
