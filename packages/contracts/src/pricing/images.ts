/**
 * Per-image price multipliers by model and size, applied on top of the model ratio (which is the price of
 * one standard image). Sizes not listed cost 1x. Values follow one-api and OpenAI's published prices:
 * dall-e-3 standard 1024x1024 $0.04, 1024x1792 $0.08; dall-e-2 256/512/1024 at 1x/1.125x/1.25x of $0.02.
 */
export const IMAGE_SIZE_RATIOS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'dall-e-2': { '256x256': 1, '512x512': 1.125, '1024x1024': 1.25 },
  'dall-e-3': { '1024x1024': 1, '1024x1792': 2, '1792x1024': 2 },
  'ali-stable-diffusion-xl': { '512x1024': 1, '1024x768': 1, '1024x1024': 1, '576x1024': 1, '1024x576': 1 },
  'ali-stable-diffusion-v1.5': { '512x1024': 1, '1024x768': 1, '1024x1024': 1, '576x1024': 1, '1024x576': 1 },
  'wanx-v1': { '1024x1024': 1, '720x1280': 1, '1280x720': 1 },
  'step-1x-medium': {
    '256x256': 1,
    '512x512': 1,
    '768x768': 1,
    '1024x1024': 1,
    '1280x800': 1,
    '800x1280': 1,
  },
}

/** `quality: "hd"` on dall-e-3 doubles the square size and costs 1.5x on the tall and wide sizes. */
export const DALL_E_3_HD_SQUARE_MULTIPLIER = 2
export const DALL_E_3_HD_OTHER_MULTIPLIER = 1.5

/** Size used when an image request names none (OpenAI's default). */
export const DEFAULT_IMAGE_SIZE = '1024x1024'

/**
 * Image models priced by tokens (their answers report input and output tokens, billed like text):
 * the output tokens one image costs, by quality and size, from OpenAI's image generation guide.
 * The reservation holds the largest for the request (auto quality or size: the dearest).
 * https://platform.openai.com/docs/guides/image-generation#cost-and-latency
 */
export const TOKEN_PRICED_IMAGE_PREFIX = 'gpt-image'
export const IMAGE_OUTPUT_TOKENS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  low: { '1024x1024': 272, '1024x1536': 408, '1536x1024': 400 },
  medium: { '1024x1024': 1056, '1024x1536': 1584, '1536x1024': 1568 },
  high: { '1024x1024': 4160, '1024x1536': 6240, '1536x1024': 6208 },
}
/** Output tokens each partial image of a streamed generation adds. */
export const PARTIAL_IMAGE_OUTPUT_TOKENS = 100
