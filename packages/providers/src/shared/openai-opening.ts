/**
 * Telling OpenAI's opening chunk from an answer: every chat stream starts with a chunk that only
 * names the role, and a stream that fails after it has told the client nothing yet, so another
 * channel may still serve the request (see StreamTransformer.answered).
 */
import { isRecord } from './json.ts'

/**
 * True for a chunk that only opens the answer: every choice's delta holds its role and nothing else
 * of substance (empty content, null refusal), with no finish reason and no usage. OpenAI starts
 * every chat stream with one: `{"role":"assistant","content":"","refusal":null}`.
 */
export function isOpeningOnly(payload: string): boolean {
  if (isOpenAiOpening(payload)) return true
  let event: unknown
  try {
    event = JSON.parse(payload)
  } catch {
    return false
  }
  if (!isRecord(event) || isRecord(event.usage) || !Array.isArray(event.choices)) return false
  if (event.choices.length === 0) return false
  return event.choices.every(
    (choice) =>
      isRecord(choice) &&
      choice.finish_reason == null &&
      isRecord(choice.delta) &&
      Object.entries(choice.delta).every(
        ([key, value]) => key === 'role' || value === null || value === '' || isEmptyList(value),
      ),
  )
}

const isEmptyList = (value: unknown): boolean => Array.isArray(value) && value.length === 0

/**
 * The `choices` of OpenAI's own opening chunk, byte for byte as OpenAI and compatible servers
 * write it (with and without `refusal`). A quote cannot appear unescaped inside a JSON string, so
 * finding one of these, from its `"choices":[` to its `]`, means the event has exactly that one
 * choice.
 */
const OPENAI_OPENING_CHOICES = [
  '"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]',
  '"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]',
]

/**
 * isOpeningOnly without parsing, for OpenAI's own opening chunk (every stream starts with one): an
 * object with one `choices` key holding one of those lists, and no usage. Anything else is left
 * to the parse (this costs a tenth of it: docs/decisions/openai-opening-chunk.md). The rest of
 * the payload is not checked to be JSON: a broken event holding that exact list is held back as an
 * opening, and goes out with the answer.
 */
function isOpenAiOpening(payload: string): boolean {
  if (payload.charCodeAt(0) !== 0x7b || payload.charCodeAt(payload.length - 1) !== 0x7d) return false
  // No usage key, or one whose value is null (OpenAI sends `"usage":null` when usage is asked for).
  const usage = payload.indexOf('"usage"')
  if (
    usage !== -1 &&
    (usage !== payload.lastIndexOf('"usage"') || !payload.startsWith('"usage":null', usage))
  )
    return false
  const choicesAt = payload.indexOf('"choices"')
  if (choicesAt === -1 || choicesAt !== payload.lastIndexOf('"choices"')) return false
  return OPENAI_OPENING_CHOICES.some((choices) => payload.startsWith(choices, choicesAt))
}
