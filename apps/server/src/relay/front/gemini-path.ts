/**
 * Gemini's API paths the relay serves: `POST /v1beta/models/{model}:generateContent`,
 * `:streamGenerateContent` (events with `alt=sse`, one JSON array without) and `:countTokens`
 * (`/v1/models/...` too, as Google serves both versions).
 * https://ai.google.dev/api/generate-content
 */
import type { GeminiCall } from '../pipeline/client-api.ts'

const GEMINI_PATH = /^\/(?:v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/

export type GeminiPath = { action: 'countTokens'; model: string } | ({ action: 'generate' } & GeminiCall)

export function matchGeminiPath(path: string, query: string): GeminiPath | undefined {
  const match = GEMINI_PATH.exec(path)
  if (!match) return undefined
  let model: string
  try {
    model = decodeURIComponent(match[1]!)
  } catch {
    model = match[1]!
  }
  if (match[2] === 'countTokens') return { action: 'countTokens', model }
  const stream = match[2] === 'streamGenerateContent'
  return { action: 'generate', model, stream, sse: new URLSearchParams(query).get('alt') === 'sse' }
}

/** A URL fit for logs: a key given as `?key=` (the caller's token) is replaced. */
export const redactKeyParameter = (url: string): string => url.replace(/([?&]key=)[^&]*/g, '$1[redacted]')
