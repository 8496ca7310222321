/**
 * Deterministic token usage, so billing tests can predict every number:
 *
 *   prompt_tokens     = number of whitespace-separated words in the request's text inputs
 *                       (chat: every message's string content and text parts; completions: prompt;
 *                       embeddings and moderations: input; images: prompt), at least 1;
 *                       overridden by the `prompt-tokens` directive.
 *   completion_tokens = number of generated content pieces: the `chunks` directive (default 5),
 *                       capped by max_tokens / max_completion_tokens; 5 for a tool call.
 *   total_tokens      = prompt_tokens + completion_tokens.
 */

export const DEFAULT_CHUNKS = 5
const WORDS = ['Hello', 'from', 'the', 'mock', 'upstream']

/** The i-th generated piece: "Hello", " from", " the", " mock", " upstream", " Hello", ... */
export const piece = (index: number): string => (index === 0 ? '' : ' ') + WORDS[index % WORDS.length]

export function generatedText(pieces: number): string {
  let text = ''
  for (let index = 0; index < pieces; index += 1) text += piece(index)
  return text
}

const countWords = (text: string): number => {
  const trimmed = text.trim()
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length
}

function wordsIn(value: unknown): number {
  if (typeof value === 'string') return countWords(value)
  if (typeof value === 'number') return 1 // a token id in a pre-tokenised input
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + wordsIn(item), 0)
  if (typeof value === 'object' && value !== null) {
    const part = value as Record<string, unknown>
    if ((part.type === 'text' || part.type === 'input_text') && typeof part.text === 'string')
      return countWords(part.text)
    if (typeof part.content !== 'undefined') return wordsIn(part.content) // a chat message
  }
  return 0
}

export function promptTokensOf(json: Record<string, unknown>): number {
  const inputs = json.messages ?? json.prompt ?? json.input
  return Math.max(1, wordsIn(inputs))
}

/** Pieces to generate: the directive or the default, capped by the request's token limit. */
export function completionPieces(
  json: Record<string, unknown>,
  requested: number | undefined,
): {
  pieces: number
  finishReason: 'stop' | 'length'
} {
  const wanted = requested ?? DEFAULT_CHUNKS
  const limit = json.max_completion_tokens ?? json.max_tokens ?? json.max_output_tokens
  if (typeof limit === 'number' && limit >= 0 && limit < wanted)
    return { pieces: limit, finishReason: 'length' }
  return { pieces: wanted, finishReason: 'stop' }
}
