import type { ServerResponse } from 'node:http'
import { sendAnthropicError } from './anthropic.ts'
import { sendBedrockError } from './bedrock.ts'
import { sendCohereError } from './cohere.ts'
import { sendError } from './errors.ts'
import { sendOllamaError } from './ollama.ts'
import { sendGoogleStatus } from './vertex.ts'

/** Writes an error answer in a provider's own shape; `body`, when given, is sent instead. */
export type ErrorSender = (response: ServerResponse, status: number, model: string, body?: unknown) => void

/** The error shape of the provider an endpoint imitates (OpenAI's for every other endpoint). */
export function errorSenderFor(endpoint: string): ErrorSender {
  if (endpoint === 'messages') return sendAnthropicError
  if (endpoint.startsWith('converse') || endpoint.startsWith('invoke'))
    return (response, status) => sendBedrockError(response, status)
  if (endpoint === 'vertex') return (response, status) => sendGoogleStatus(response, status)
  if (endpoint.startsWith('cohere-')) return sendCohereError
  if (endpoint.startsWith('ollama-')) return sendOllamaError
  return sendError
}
