/**
 * Claude on Vertex AI: Anthropic's Messages body without `model` (it is in the URL) and with
 * `anthropic_version: vertex-2023-10-16`, sent to `:rawPredict` or `:streamRawPredict`; answers and
 * streams are Anthropic's own, read by the Anthropic adaptor's code.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude
 */
import type { RelayRequest } from '../adaptor.ts'
import { anthropicBody } from '../anthropic/request-body.ts'

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16'

/** The body for an OpenAI chat request. */
export function vertexClaudeBody(
  request: RelayRequest & { json: Record<string, unknown> },
): Record<string, unknown> {
  const { model: _model, ...body } = anthropicBody(request.json, {
    model: request.mappedModel,
    stream: request.stream,
    systemPrompt: request.systemPrompt,
    images: request.images,
  })
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...body }
}

/** The body for a Messages client's own request (relayed natively). */
export function vertexClaudeNativeBody(
  native: Record<string, unknown>,
  systemPrompt?: string,
): Record<string, unknown> {
  const { model: _model, ...body } = native
  if (systemPrompt) body.system = systemPrompt
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...body }
}

export const claudeAction = (stream: boolean) => (stream ? 'streamRawPredict' : 'rawPredict')
