import { IMAGE_SIZE_RATIOS, TOKEN_PRICED_IMAGE_PREFIX } from './images.ts'
import { MILLI_USD, USD } from './units.ts'

/**
 * The console's price view of one-api's ratios: US dollars per million tokens. Ratio 1 is $0.002 per
 * 1K tokens, that is $2 per 1M tokens; the output price is the input price times the completion ratio.
 */

/**
 * Share of the input price a prompt token read from the provider's cache costs: the relay bills
 * cached prompt tokens at half price (OpenAI's discount for the gpt-4o family).
 */
export const DEFAULT_CACHED_PROMPT_RATIO = 0.5

/**
 * Prices and ratios are kept to 12 significant digits: far more than any price needs, and it drops
 * the binary floating-point noise of a division (0.6 / 0.15 is 3.9999999999999996, not 4).
 */
export function roundPrice(value: number): number {
  return Number(value.toPrecision(12))
}

/** How a model is billed, which decides the unit its price is shown in. */
export type PriceUnit = 'token' | 'image' | 'character'

const IMAGE_MODEL_PATTERN =
  /^(dall-e|cogview|wanx|ali-stable-diffusion|step-1x)|flux|stable-diffusion|ideogram|recraft|imagen/

/**
 * Image generators are billed per image (their ratio is the price of one standard image), text to
 * speech per input character; everything else per token, including gpt-image models, which report
 * tokens, and whisper, which bills the tokens of its transcript.
 */
export function priceUnitOf(model: string): PriceUnit {
  if (model.startsWith(TOKEN_PRICED_IMAGE_PREFIX)) return 'token'
  if (Object.hasOwn(IMAGE_SIZE_RATIOS, model) || IMAGE_MODEL_PATTERN.test(model)) return 'image'
  if (model.startsWith('tts-')) return 'character'
  return 'token'
}

/** US dollars per million tokens (or characters) for a model ratio: ratio × 2. */
export function usdPerMillion(ratio: number): number {
  return roundPrice(ratio / MILLI_USD)
}

/** The model ratio that charges `usd` per million tokens: usd ÷ 2. */
export function ratioOfUsdPerMillion(usd: number): number {
  return roundPrice(usd * MILLI_USD)
}

/** US dollars per standard image for an image model's ratio (dall-e-3's 20 is $0.04). */
export function usdPerImage(ratio: number): number {
  return roundPrice(ratio / USD)
}

export interface TokenPrices {
  /** Dollars per 1M input tokens. */
  input: number
  /** Dollars per 1M output tokens; undefined when the model has no completion ratio of its own. */
  output: number | undefined
  /** Dollars per 1M cached input tokens. */
  cachedInput: number
}

/** The dollar prices a model ratio and completion ratio (both before the group ratio) stand for. */
export function pricesOfRatios(modelRatio: number, completionRatio: number | undefined): TokenPrices {
  const input = usdPerMillion(modelRatio)
  return {
    input,
    output: completionRatio === undefined ? undefined : roundPrice(input * completionRatio),
    cachedInput: roundPrice(input * DEFAULT_CACHED_PROMPT_RATIO),
  }
}

export type RatiosOfPrices =
  | { ok: true; modelRatio: number; completionRatio: number | undefined }
  | { ok: false; error: 'negative' | 'output-without-input' }

/**
 * The ratios that charge `input` and `output` dollars per 1M tokens; without an output price the
 * completion ratio is left undefined. A free input with a paid output cannot be written as ratios
 * (the output price is a multiple of the input price).
 */
export function ratiosOfPrices(input: number, output: number | undefined): RatiosOfPrices {
  if (!(input >= 0) || (output !== undefined && !(output >= 0))) return { ok: false, error: 'negative' }
  const modelRatio = ratioOfUsdPerMillion(input)
  if (output === undefined) return { ok: true, modelRatio, completionRatio: undefined }
  if (input === 0) {
    return output === 0
      ? { ok: true, modelRatio, completionRatio: 1 }
      : { ok: false, error: 'output-without-input' }
  }
  return { ok: true, modelRatio, completionRatio: completionRatioOf(input, output) }
}

/**
 * output ÷ input, rounded to 12 digits when that still gives back the typed output price (4, not
 * 3.9999999999999996), else in full (a ratio such as 38.142857… has no short decimal form).
 */
function completionRatioOf(input: number, output: number): number {
  const exact = output / input
  const rounded = roundPrice(exact)
  return roundPrice(input * rounded) === output ? rounded : exact
}
