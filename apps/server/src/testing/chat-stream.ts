import type OpenAI from 'openai'

/** What an OpenAI client reads from a chat completion stream, for tests to compare. */
export interface ChatStreamRead {
  /** The content deltas that were not empty, in order. */
  readonly pieces: string[]
  readonly text: string
  /** The first tool call's name and arguments, joined from their deltas. */
  readonly toolName: string
  readonly toolArguments: string
  /** The last finish reason a chunk gave. */
  readonly finish: string | null | undefined
  /** The last usage a chunk carried, and how many chunks carried one. */
  readonly usage: OpenAI.CompletionUsage | undefined
  readonly usageChunks: number
}

/** Reads a chat completion stream to its end. */
export async function readChatStream(
  stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>,
): Promise<ChatStreamRead> {
  const pieces: string[] = []
  let toolName = ''
  let toolArguments = ''
  let finish: string | null | undefined
  let usage: OpenAI.CompletionUsage | undefined
  let usageChunks = 0
  for await (const chunk of stream) {
    const choice = chunk.choices[0]
    if (choice?.delta?.content) pieces.push(choice.delta.content)
    const call = choice?.delta?.tool_calls?.[0]
    toolName += call?.function?.name ?? ''
    toolArguments += call?.function?.arguments ?? ''
    finish = choice?.finish_reason ?? finish
    if (chunk.usage) {
      usage = chunk.usage
      usageChunks += 1
    }
  }
  return { pieces, text: pieces.join(''), toolName, toolArguments, finish, usage, usageChunks }
}
