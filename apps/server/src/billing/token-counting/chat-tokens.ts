import { countTextTokens, type TokenCountOptions } from './count-tokens.ts'

/** A chat message as the client sent it; only the fields that reach the model's prompt are read. */
export interface ChatPromptMessage {
  role?: unknown
  content?: unknown
  name?: unknown
  /** Earlier assistant tool calls are part of the conversation the model reads. */
  tool_calls?: unknown
}

export interface ImageTokenInput {
  model: string
  /** "low", "high" or "auto"/absent (treated as high, as OpenAI does for large images). */
  detail?: string
  /** Known pixel size; without one the 1024x1024 high-detail cost is assumed. */
  width?: number
  height?: number
}

// OpenAI's vision pricing: a low-detail image is a flat base cost; high detail adds a cost per 512px
// tile after scaling into 2048x2048 and the short side down to 768. gpt-4o-mini counts ~33x the
// tokens at its lower price. https://platform.openai.com/docs/guides/images-vision#calculating-costs
const IMAGE_COSTS = { base: 85, tile: 170 }
const MINI_IMAGE_COSTS = { base: 2833, tile: 5667 }
const ASSUMED_IMAGE_SIZE = 1024

/**
 * Prompt tokens of one image. Images are never downloaded to measure them (one-api fetched every
 * image URL while counting); an image of unknown size is estimated as 1024x1024: 85 + 170 × 4 = 765.
 */
export function estimateImageTokens(input: ImageTokenInput): number {
  const costs = input.model.startsWith('gpt-4o-mini') ? MINI_IMAGE_COSTS : IMAGE_COSTS
  if (input.detail === 'low') return costs.base
  let width = positiveOr(input.width, ASSUMED_IMAGE_SIZE)
  let height = positiveOr(input.height, ASSUMED_IMAGE_SIZE)
  if (width > 2048 || height > 2048) {
    const scale = 2048 / Math.max(width, height)
    width = Math.floor(width * scale)
    height = Math.floor(height * scale)
  }
  if (width > 768 && height > 768) {
    const scale = 768 / Math.min(width, height)
    width = Math.floor(width * scale)
    height = Math.floor(height * scale)
  }
  const tiles = Math.ceil(width / 512) * Math.ceil(height / 512)
  return costs.base + costs.tile * tiles
}

/**
 * Local estimate of a chat request's prompt tokens, for reservations and for upstreams that report no
 * usage. One-api's accounting: 3 tokens per message (4 for gpt-3.5-turbo-0301) + role + content (text
 * parts summed, image parts estimated) + name (+1, -1 for 0301), then 3 tokens priming the reply.
 * Unlike one-api, the tools / functions definitions are counted too (as their JSON text): the model
 * reads them and providers bill them.
 */
export function countChatPromptTokens(
  messages: readonly ChatPromptMessage[],
  model: string,
  tools?: unknown,
  options?: TokenCountOptions,
): number {
  const legacy = model === 'gpt-3.5-turbo-0301'
  const perMessage = legacy ? 4 : 3
  const perName = legacy ? -1 : 1
  let total = 0
  for (const message of messages) {
    total += perMessage
    if (typeof message.role === 'string') total += countTextTokens(message.role, model, options)
    total += countContentTokens(message.content, model, options)
    if (typeof message.name === 'string' && message.name.length > 0) {
      total += perName + countTextTokens(message.name, model, options)
    }
    total += countToolCallTokens(message.tool_calls, model, options)
  }
  total += 3
  if (Array.isArray(tools) ? tools.length > 0 : tools !== undefined && tools !== null) {
    total += countTextTokens(JSON.stringify(tools), model, options)
  }
  return total
}

function countContentTokens(content: unknown, model: string, options?: TokenCountOptions): number {
  if (typeof content === 'string') return countTextTokens(content, model, options)
  if (!Array.isArray(content)) return 0
  let total = 0
  for (const part of content) {
    if (typeof part !== 'object' || part === null) continue
    const {
      type,
      text,
      image_url: imageUrl,
    } = part as { type?: unknown; text?: unknown; image_url?: unknown }
    if (type === 'text' && typeof text === 'string') total += countTextTokens(text, model, options)
    if (type === 'image_url') total += estimateImageTokens({ model, detail: imageDetail(imageUrl) })
  }
  return total
}

function imageDetail(imageUrl: unknown): string | undefined {
  if (typeof imageUrl !== 'object' || imageUrl === null) return undefined
  const detail = (imageUrl as { detail?: unknown }).detail
  return typeof detail === 'string' ? detail : undefined
}

function countToolCallTokens(toolCalls: unknown, model: string, options?: TokenCountOptions): number {
  if (!Array.isArray(toolCalls)) return 0
  let total = 0
  for (const call of toolCalls) {
    const fn = (call as { function?: { name?: unknown; arguments?: unknown } } | null)?.function
    if (typeof fn?.name === 'string') total += countTextTokens(fn.name, model, options)
    if (typeof fn?.arguments === 'string') total += countTextTokens(fn.arguments, model, options)
  }
  return total
}

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback
}
