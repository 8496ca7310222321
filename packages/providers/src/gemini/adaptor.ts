/**
 * Gemini channels (type 24): Google's Generative Language API with the key in `x-goog-api-key`.
 * https://ai.google.dev/api/generate-content
 * https://ai.google.dev/gemini-api/docs/api-key
 * URL `{base}/{version}/models/{model}:{action}`: generateContent, streamGenerateContent?alt=sse
 * or batchEmbedContents. `geminiAdaptorFor` builds the same adaptor for another host and
 * credential (Gemini models on Vertex AI): only the URL and the headers differ.
 */
import type {
  Adaptor,
  ChannelCredentials,
  RelayRequest,
  StreamTransformer,
  UpstreamError,
  UpstreamRequest,
} from '../adaptor.ts'
import { remoteImageUrls } from '../anthropic/request-body.ts'
import { localError } from '../shared/upstream-error.ts'
import { DEFAULT_SAFETY_THRESHOLD, geminiChatBody, geminiEmbedBody } from './request-body.ts'
import { parseGeminiChatResponse, parseGeminiEmbeddingResponse } from './response.ts'
import { GeminiToOpenAiStream } from './stream.ts'

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com'
/** GEMINI_VERSION's default, as one-api's. */
export const DEFAULT_GEMINI_VERSION = 'v1'

export type GeminiAction = 'generateContent' | 'streamGenerateContent?alt=sse' | 'batchEmbedContents'

/** Where a Gemini request goes and how it is authorised, for one channel. */
export interface GeminiTarget {
  readonly name: string
  url(channel: ChannelCredentials, model: string, action: GeminiAction): string
  headers(channel: ChannelCredentials): Record<string, string> | UpstreamError
}

const configString = (channel: ChannelCredentials, field: string): string | undefined => {
  const value = channel.config?.[field]
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/**
 * Models one-api sends to v1beta whatever GEMINI_VERSION says (gemini-1.5 and gemini-2.0), the
 * later families, whose thinking and tool features Google documents on v1beta, and the Gemini
 * embedding models, documented there too.
 */
const V1BETA_MODELS = /gemini-(1\.5|2\.|3|embedding)/

/**
 * The API version: the channel's `api_version` (or the legacy `other` column, which old one-api
 * databases hold it in), else v1beta for the models above, else GEMINI_VERSION (default v1).
 */
export function geminiVersion(channel: ChannelCredentials, model: string): string {
  const configured = configString(channel, 'api_version') ?? (channel.other?.trim() || undefined)
  if (configured) return configured
  if (V1BETA_MODELS.test(model)) return 'v1beta'
  return channel.defaults?.geminiVersion?.trim() || DEFAULT_GEMINI_VERSION
}

/** The model's resource name in a URL: a leading `models/` is accepted and not doubled. */
export const modelPath = (model: string): string => encodeURIComponent(model.replace(/^models\//, ''))

export const geminiTarget: GeminiTarget = {
  name: 'gemini',
  url(channel, model, action) {
    const base = (channel.baseUrl || GEMINI_DEFAULT_BASE_URL).replace(/\/+$/, '')
    return `${base}/${geminiVersion(channel, model)}/models/${modelPath(model)}:${action}`
  },
  headers: (channel) => ({ 'x-goog-api-key': channel.key }),
}

function upstreamRequest(
  target: GeminiTarget,
  request: RelayRequest,
  channel: ChannelCredentials,
  action: GeminiAction,
  body: unknown,
): UpstreamRequest | UpstreamError {
  const auth = target.headers(channel)
  if ('kind' in auth) return auth as UpstreamError
  return {
    kind: 'request',
    url: target.url(channel, request.mappedModel, action),
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: action.startsWith('stream') ? 'text/event-stream' : 'application/json',
      ...auth,
    },
    body: JSON.stringify(body),
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

/** The action of a request: a stream, a non-stream chat or embeddings. */
const actionOf = (request: RelayRequest): GeminiAction =>
  request.mode === 'embeddings'
    ? 'batchEmbedContents'
    : request.stream
      ? 'streamGenerateContent?alt=sse'
      : 'generateContent'

/** GEMINI_SAFETY_SETTING, or its default: the threshold sent for every harm category. */
export const safetyThreshold = (channel: ChannelCredentials): string =>
  channel.defaults?.geminiSafetySetting?.trim() || DEFAULT_SAFETY_THRESHOLD

/** The adaptor that serves OpenAI clients from a Gemini upstream reached through `target`. */
export function geminiAdaptorFor(target: GeminiTarget): Adaptor {
  return {
    name: target.name,
    remoteImages: (request) => (request.mode === 'chat' ? remoteImageUrls(request.json) : []),
    buildRequest(request, channel) {
      if (!request.json || (request.mode !== 'chat' && request.mode !== 'embeddings')) {
        return localError(
          400,
          'unsupported_endpoint',
          'Gemini channels serve chat completions and embeddings only',
          {
            type: 'invalid_request_error',
          },
        )
      }
      const body =
        request.mode === 'embeddings'
          ? geminiEmbedBody(request.json, request.mappedModel)
          : geminiChatBody(request.json, {
              model: request.mappedModel,
              systemPrompt: request.systemPrompt,
              images: request.images,
              safetyThreshold: safetyThreshold(channel),
            })
      return upstreamRequest(target, request, channel, actionOf(request), body)
    },
    parseResponse: (response, request) =>
      request.mode === 'embeddings'
        ? parseGeminiEmbeddingResponse(response, request)
        : parseGeminiChatResponse(response, request),
    createStreamTransformer: (request): StreamTransformer => new GeminiToOpenAiStream(request),
  }
}

export const geminiAdaptor: Adaptor = geminiAdaptorFor(geminiTarget)
