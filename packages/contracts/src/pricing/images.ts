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
