/**
 * Serves clients of another API (Messages, Responses, Gemini) through an adaptor that answers in
 * OpenAI's chat format: the request reaches the adaptor as its chat translation
 * (RelayRequest.json), and its answers and streams are turned into the client API's.
 */
import type {
  Adaptor,
  ParsedResponse,
  RelayRequest,
  StreamTransformer,
  UpstreamError,
  UpstreamRequest,
} from '../adaptor.ts'
import type { Json } from './json.ts'
import { readJsonObject } from './upstream-error.ts'
import type { Usage } from './usage.ts'

export interface ClientApi {
  /** The adaptor's chat completion as the client API's answer. */
  answer(completion: Json, usage: Usage | undefined, request: RelayRequest): Json
  /** The adaptor's chat chunk stream as the client API's stream. */
  stream(inner: StreamTransformer, request: RelayRequest): StreamTransformer
  /** A refusal before the adaptor builds anything: a request the chat format cannot carry. */
  refuse?(request: RelayRequest): UpstreamError | undefined
}

function translateAnswer(
  parsed: ParsedResponse,
  request: RelayRequest,
  api: ClientApi,
): ParsedResponse | UpstreamError {
  const read = readJsonObject(parsed.body, 'invalid_upstream_response')
  if (read.kind === 'error') return read
  return { ...parsed, body: Buffer.from(JSON.stringify(api.answer(read.json, parsed.usage, request))) }
}

export function clientBridge(inner: Adaptor, api: ClientApi): Adaptor {
  return {
    name: inner.name,
    remoteImages: inner.remoteImages,
    credentialExchange: inner.credentialExchange,
    // A job the upstream runs in steps is followed alike whatever the client's API.
    task: inner.task,
    buildRequest(request, channel): UpstreamRequest | UpstreamError {
      return api.refuse?.(request) ?? inner.buildRequest(request, channel)
    },
    parseResponse(response, request) {
      const parsed = inner.parseResponse(response, request)
      return parsed.kind === 'error' ? parsed : translateAnswer(parsed, request, api)
    },
    createStreamTransformer(request, built) {
      return api.stream(inner.createStreamTransformer(request, built), request)
    },
  }
}
