import { IMAGE_SIZE_RATIOS } from '@one-api/contracts/pricing-defaults'
import type { RelayMode } from '@one-api/providers'
import { RelayError } from '../auth/relay-error.ts'

/**
 * Limits the providers put on image and speech requests, checked against the model the channel
 * will be asked for (after its model mapping), as one-api does: a request the provider would refuse
 * is refused here with a clear 400, before any quota is reserved or any upstream is called.
 * Models not listed here (gpt-image-1, say) are left for their provider to judge, but for OpenAI's
 * bound on `n`.
 */
const IMAGE_LIMITS: Readonly<Record<string, { promptCharacters: number; maxImages: number }>> = {
  'dall-e-2': { promptCharacters: 1000, maxImages: 10 },
  'dall-e-3': { promptCharacters: 4000, maxImages: 1 },
  'ali-stable-diffusion-xl': { promptCharacters: 4000, maxImages: 4 },
  'ali-stable-diffusion-v1.5': { promptCharacters: 4000, maxImages: 4 },
  'wanx-v1': { promptCharacters: 4000, maxImages: 4 },
  'cogview-3': { promptCharacters: 833, maxImages: 1 },
  'step-1x-medium': { promptCharacters: 4000, maxImages: 1 },
}
/** OpenAI's limit on the text of one speech request. */
const SPEECH_INPUT_CHARACTERS = 4096
/** OpenAI's bound on `n` for image models with no limits of their own (gpt-image-1...). */
const MAX_IMAGES = 10

export function checkProviderLimits(
  mode: RelayMode,
  model: string,
  json: Record<string, unknown> | undefined,
): void {
  if (!json) return
  if (mode === 'images') checkImageRequest(model, json)
  if (
    mode === 'audio-speech' &&
    typeof json.input === 'string' &&
    longerThan(json.input, SPEECH_INPUT_CHARACTERS)
  ) {
    throw refused(`input is too long (over ${SPEECH_INPUT_CHARACTERS} characters)`, 'text_too_long', 'input')
  }
}

function checkImageRequest(model: string, json: Record<string, unknown>): void {
  const sizes = Object.hasOwn(IMAGE_SIZE_RATIOS, model) ? IMAGE_SIZE_RATIOS[model] : undefined
  if (sizes && json.size != null && !(typeof json.size === 'string' && Object.hasOwn(sizes, json.size))) {
    throw refused(
      `size ${JSON.stringify(json.size)} is not supported by ${model}: use ${Object.keys(sizes).join(', ')}`,
      'size_not_supported',
      'size',
    )
  }
  const limits = Object.hasOwn(IMAGE_LIMITS, model) ? IMAGE_LIMITS[model] : undefined
  if (typeof json.prompt === 'string' && limits && longerThan(json.prompt, limits.promptCharacters)) {
    throw refused(
      `prompt is too long for ${model} (over ${limits.promptCharacters} characters)`,
      'prompt_too_long',
      'prompt',
    )
  }
  // Every image model is held to a bound: an unbounded n was reserved and billed as asked (10^11
  // images charged for the 10 the upstream made).
  const maxImages = limits?.maxImages ?? MAX_IMAGES
  const n = json.n ?? 1
  if (!(typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= maxImages)) {
    const range = maxImages === 1 ? 'must be 1' : `must be an integer from 1 to ${maxImages}`
    throw refused(`n ${range} for ${model}`, 'n_not_within_range', 'n')
  }
}

/**
 * Whether `text` has more than `limit` characters, counted as Unicode code points like the
 * providers (and the speech price) do: an emoji is one character, not two UTF-16 units.
 */
function longerThan(text: string, limit: number): boolean {
  // A string no longer than the limit in UTF-16 units has no more code points: no count needed.
  if (text.length <= limit) return false
  let characters = 0
  for (const _ of text) {
    characters += 1
    if (characters > limit) return true
  }
  return false
}

function refused(message: string, code: string, param: string): RelayError {
  return new RelayError(400, message, code, 'invalid_request_error', param)
}
