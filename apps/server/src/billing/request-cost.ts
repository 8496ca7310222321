import {
  IMAGE_OUTPUT_TOKENS,
  PARTIAL_IMAGE_OUTPUT_TOKENS,
  TOKEN_PRICED_IMAGE_PREFIX,
} from '@one-api/contracts/pricing-defaults'
import { hasTokens, type RelayMode, type Usage } from '@one-api/providers'
import {
  computeImageQuota,
  computeReservation,
  computeSpeechQuota,
  computeTextQuota,
  computeTranscriptionQuota,
} from './pricing/quota.ts'
import type { ResolvedPricing } from './pricing/resolve-pricing.ts'
import { type ChatPromptMessage, countChatPromptTokens } from './token-counting/chat-tokens.ts'
import {
  CountBudget,
  countCompletionPromptTokens,
  countInputTokens,
  countTextTokens,
  type TokenCountOptions,
} from './token-counting/count-tokens.ts'
import { boundUsage, safeQuota } from './usage-bounds.ts'

/**
 * Turns a relay request into quota: the local prompt estimate, the reservation held while the
 * request is in flight, and the final charge from the usage the upstream reported (or a local
 * count of the generated text when it reported none).
 */
export interface CostInput {
  mode: RelayMode
  /** The model billed: after the channel's model mapping. */
  model: string
  json: Record<string, unknown> | undefined
  pricing: ResolvedPricing
  maxTokens?: number
  approximate: boolean
}

export interface Charge {
  quota: number
  promptTokens: number
  completionTokens: number
  /** True when some of the tokens were counted here: the upstream reported none, or not all. */
  estimated: boolean
  /** Set when the upstream reported more tokens than the request allows (see usage-bounds.ts). */
  clamped?: string
}

export function estimatePromptTokens(input: CostInput): number {
  const { mode, json, model } = input
  const options = countOptions(input)
  if (!json) return 0
  if (mode === 'chat') {
    const tools = json.tools ?? json.functions
    return countChatPromptTokens(json.messages as ChatPromptMessage[], model, tools, options)
  }
  if (mode === 'completions') return countCompletionPromptTokens(json.prompt, model, options)
  if (mode === 'embeddings' || mode === 'moderations') return countInputTokens(json.input, model, options)
  if (mode === 'rerank') return countInputTokens(rerankTexts(json), model, options)
  if (mode === 'images' && isTokenPricedImageModel(model) && typeof json.prompt === 'string') {
    return countTextTokens(json.prompt, model, options)
  }
  return 0
}

/** The texts a rerank model reads: the query and every document. */
function rerankTexts(json: Record<string, unknown>): string[] {
  const documents = Array.isArray(json.documents) ? json.documents : []
  const texts = documents.map((document) =>
    typeof document === 'string' ? document : String((document as { text?: unknown })?.text ?? ''),
  )
  return [String(json.query ?? ''), ...texts]
}

const isTokenPricedImageModel = (model: string) => model.startsWith(TOKEN_PRICED_IMAGE_PREFIX)

/**
 * The most output tokens an image request of a token-priced model can cost: per image the dearest
 * its quality and size allow (auto or unknown: the dearest of all), plus its partial images.
 */
function imageOutputTokens(json: Record<string, unknown>): number {
  const qualities =
    typeof json.quality === 'string' && Object.hasOwn(IMAGE_OUTPUT_TOKENS, json.quality)
      ? [IMAGE_OUTPUT_TOKENS[json.quality]!]
      : Object.values(IMAGE_OUTPUT_TOKENS)
  let perImage = 0
  for (const sizes of qualities) {
    const known = typeof json.size === 'string' && Object.hasOwn(sizes, json.size)
    perImage = Math.max(perImage, ...(known ? [sizes[json.size as string]!] : Object.values(sizes)))
  }
  const partials =
    typeof json.partial_images === 'number' && json.partial_images > 0 ? json.partial_images : 0
  const n = typeof json.n === 'number' && Number.isInteger(json.n) && json.n > 0 ? json.n : 1
  return n * (perImage + partials * PARTIAL_IMAGE_OUTPUT_TOKENS)
}

/**
 * The quota held before the upstream call. A priced request holds at least 1, so that it needs a
 * token and user with something left even when its estimate is 0 (an audio upload with
 * PreConsumedQuota 0): a reservation of 0 checks nothing, and such requests spent past 0.
 */
export function reservationFor(input: CostInput, promptTokens: number, preConsumedQuota: number): number {
  const { modelRatio, groupRatio } = input.pricing
  const amount = safeQuota(estimatedReservation(input, promptTokens, preConsumedQuota))
  return modelRatio * groupRatio > 0 ? Math.max(1, amount) : amount
}

function estimatedReservation(input: CostInput, promptTokens: number, preConsumedQuota: number): number {
  const { modelRatio, groupRatio, completionRatio } = input.pricing
  // gpt-image-1 and its kind bill the tokens they report (chargeFor): the reservation holds the
  // most the request can cost that way (per image it was about a thirtieth of a high-quality image).
  if (input.mode === 'images' && isTokenPricedImageModel(input.model)) {
    return computeReservation({
      preConsumedQuota,
      promptTokens,
      maxTokens: imageOutputTokens(input.json ?? {}),
      modelRatio,
      completionRatio,
      groupRatio,
    })
  }
  if (input.mode === 'images') return imageQuota(input)
  if (input.mode === 'audio-speech') {
    return computeSpeechQuota({ input: String(input.json?.input ?? ''), modelRatio, groupRatio })
  }
  return computeReservation({
    preConsumedQuota,
    promptTokens,
    maxTokens: input.maxTokens,
    modelRatio,
    completionRatio,
    groupRatio,
  })
}

/**
 * The generated text of an answer, for a local count when the upstream reported no usage. Read
 * only then: a stream transformer produces it on demand.
 */
export interface GeneratedText {
  readonly completionText?: string
  /** The full length when completionText was capped. */
  readonly completionTextLength?: number
  /** Images an image answer carried, when it was read. */
  readonly imageCount?: number
}

function localCompletionTokens(input: CostInput, generated: GeneratedText): number {
  const text = generated.completionText
  if (!text) return 0
  return scaledCount(
    countTextTokens(text, input.model, countOptions(input)),
    text.length,
    generated.completionTextLength ?? text.length,
  )
}

/**
 * The final charge of a successful request: the usage the upstream reported, bounded by what the
 * request could have produced, and the quota a whole number the ledger can store.
 */
export function chargeFor(
  input: CostInput,
  promptEstimate: number,
  reported: Usage | undefined,
  generated: GeneratedText = {},
): Charge {
  const { usage, clamped } = boundUsage(reported, { maxTokens: input.maxTokens, promptEstimate })
  const charge = chargeForUsage(input, promptEstimate, usage, generated)
  charge.quota = safeQuota(charge.quota)
  if (clamped) charge.clamped = clamped
  return charge
}

function chargeForUsage(
  input: CostInput,
  promptEstimate: number,
  usage: Usage | undefined,
  generated: GeneratedText,
): Charge {
  const { modelRatio, groupRatio, completionRatio } = input.pricing
  if (input.mode === 'images') {
    // gpt-image-1 and its kind are priced by tokens and report them: billed like text. The others
    // by image, for the images the answer carried when it says (never more than were asked for).
    if (splitUsage(usage)) return tokenCharge(input, usage!)
    return {
      quota: imageQuota(input, generated.imageCount),
      promptTokens: 0,
      completionTokens: 0,
      estimated: false,
    }
  }
  if (input.mode === 'audio-speech') {
    const quota = computeSpeechQuota({ input: String(input.json?.input ?? ''), modelRatio, groupRatio })
    return { quota, promptTokens: 0, completionTokens: 0, estimated: false }
  }
  if (input.mode === 'audio-transcription' || input.mode === 'audio-translation') {
    // gpt-4o-transcribe reports audio input and text output tokens, priced like a chat's prompt and
    // completion; whisper-1 reports none (or a bare total), and its transcript's tokens are billed.
    if (splitUsage(usage)) return tokenCharge(input, usage!)
    const textTokens =
      usage?.totalTokens || countTextTokens(generated.completionText ?? '', input.model, countOptions(input))
    return {
      quota: computeTranscriptionQuota({ textTokens, modelRatio, groupRatio }),
      promptTokens: textTokens,
      completionTokens: 0,
      estimated: !usage,
    }
  }
  const hasUsage = usage !== undefined && usage.promptTokens + usage.completionTokens > 0
  // A count the upstream left out (and its total does not give) is made locally, never taken as 0.
  const promptMissing = !hasUsage || usage.promptMissing === true
  const completionMissing = !hasUsage || usage.completionMissing === true
  const promptTokens = promptMissing ? promptEstimate : usage.promptTokens
  const completionTokens = completionMissing
    ? localCompletionTokens(input, generated)
    : usage.completionTokens
  const quota = computeTextQuota({
    promptTokens,
    completionTokens,
    ...(hasUsage ? cacheFields(usage) : {}),
    modelRatio,
    completionRatio,
    groupRatio,
  })
  return { quota, promptTokens, completionTokens, estimated: promptMissing || completionMissing }
}

/** The prompt cache's reads and writes of a usage, at the provider's prices when it says them. */
function cacheFields(usage: Usage) {
  return {
    cachedTokens: usage.cachedTokens,
    cachedRatio: usage.cacheReadRatio,
    cacheWriteTokens: usage.cacheWriteTokens,
    cacheWriteRatio: usage.cacheWriteRatio,
  }
}

/** True when the upstream reported its input and output tokens apart (not only a total). */
function splitUsage(usage: Usage | undefined): boolean {
  return hasTokens(usage) && usage.promptMissing !== true && usage.completionMissing !== true
}

/** The charge of an answer billed by the input and output tokens its upstream reported. */
function tokenCharge(input: CostInput, usage: Usage): Charge {
  const { modelRatio, groupRatio, completionRatio } = input.pricing
  const quota = computeTextQuota({
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    ...cacheFields(usage),
    modelRatio,
    completionRatio,
    groupRatio,
  })
  return {
    quota,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    estimated: false,
  }
}

/** How one count of a request's text is made: its own budget of exact counting (see CountBudget). */
function countOptions(input: CostInput): TokenCountOptions {
  return { approximate: input.approximate, budget: new CountBudget() }
}

// Streams keep a bounded sample of the generated text; scale its count to the full length.
function scaledCount(tokens: number, sampleLength: number, fullLength: number): number {
  if (fullLength <= sampleLength || sampleLength === 0) return tokens
  return Math.ceil((tokens * fullLength) / sampleLength)
}

/** The images' price: `n` of them, or as many as the answer carried when fewer (`returned`). */
function imageQuota(input: CostInput, returned?: number): number {
  const json = input.json ?? {}
  const asked = typeof json.n === 'number' && Number.isInteger(json.n) && json.n > 0 ? json.n : 1
  return computeImageQuota({
    model: input.model,
    size: typeof json.size === 'string' ? json.size : undefined,
    quality: typeof json.quality === 'string' ? json.quality : undefined,
    n: returned === undefined ? asked : Math.min(asked, returned),
    modelRatio: input.pricing.modelRatio,
    groupRatio: input.pricing.groupRatio,
  })
}
