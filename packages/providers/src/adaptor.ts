/**
 * The contract between the relay pipeline (which does all I/O) and a provider adaptor (which only
 * translates). Every function here is pure: no network, no database, no clock-dependent output.
 */
import type { Usage } from './shared/usage.ts'

/** What the client called, derived from the incoming path (see relay-mode.ts). */
export type RelayMode =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'moderations'
  | 'images'
  | 'audio-speech'
  | 'audio-transcription'
  | 'audio-translation'
  | 'rerank'

/**
 * The API the client called, which decides the format of its request and of every answer it gets
 * (bodies, stream events, errors): OpenAI's (`/v1/chat/completions`, ...), Anthropic's Messages
 * API (`/v1/messages`), OpenAI's Responses API (`/v1/responses`, errors in OpenAI's shape) or
 * Gemini's (`/v1beta/models/{model}:generateContent`).
 */
export type ClientApi = 'openai' | 'anthropic' | 'responses' | 'gemini'

/** One client request as the pipeline has parsed it. The adaptor never mutates it. */
export interface RelayRequest {
  readonly mode: RelayMode
  /** The client's API; 'openai' when absent. */
  readonly clientApi?: ClientApi
  /**
   * For a client API other than OpenAI's: the client's own request. `body` and `json` then hold
   * its translation to an OpenAI chat request, which adaptors that do not speak the client's API read.
   */
  readonly native?: {
    readonly json: Record<string, unknown>
    readonly body: Buffer
    /** A Gemini client's stream asked without `alt=sse`: its answer is one JSON array. */
    readonly jsonArrayStream?: boolean
  }
  /** Unix seconds of the request's arrival: the `created` of answers an adaptor builds itself. */
  readonly receivedAt?: number
  /**
   * Remote images the pipeline fetched for this request (see Adaptor.remoteImages), by URL. An
   * adaptor whose upstream cannot take image URLs inlines them from here.
   */
  readonly images?: ReadonlyMap<string, InlineImage>
  /** The incoming path, `/v1/...`, including the query string. */
  readonly path: string
  /** The request body exactly as the client sent it. */
  readonly body: Buffer
  /** The parsed JSON body, or undefined for multipart (audio) bodies. */
  readonly json: Record<string, unknown> | undefined
  /** The model the client asked for (abilities and logs use this name). */
  readonly requestedModel: string
  /** The model after the channel's model_mapping (billing and the upstream use this name). */
  readonly mappedModel: string
  readonly stream: boolean
  /** True when the client itself sent `stream_options.include_usage: true`. */
  readonly clientWantsUsage: boolean
  /** The channel's forced system prompt, if any (chat only). */
  readonly systemPrompt?: string
  /** The client's Content-Type header (multipart boundaries live here). */
  readonly contentType?: string
  /** The client's Accept header. */
  readonly accept?: string
}

/** An image fetched by the pipeline: its media type and bytes as base64. */
export interface InlineImage {
  readonly mediaType: string
  readonly base64: string
}

/** What an adaptor needs to know about the chosen channel. */
export interface ChannelCredentials {
  /** Channel type id (one-api's numbering). */
  readonly type: number
  readonly key: string
  /** The channel's base_url column; empty or missing means the type's default base URL. */
  readonly baseUrl?: string | null
  /** The channel's parsed `config` column (api_version, region, ...). */
  readonly config?: Readonly<Record<string, unknown>>
  /** The legacy `other` column (Azure api-version in old one-api databases). */
  readonly other?: string | null
  /** The gateway's settings that decide a provider's defaults (read from the environment). */
  readonly defaults?: ProviderDefaults
  /** The token the pipeline obtained through Adaptor.credentialExchange, for adaptors that have one. */
  readonly accessToken?: string
}

/** Provider defaults the administrator sets for the whole gateway; each has a built-in default. */
export interface ProviderDefaults {
  /** GEMINI_VERSION: the Gemini API version of channels that set none. */
  readonly geminiVersion?: string
  /** GEMINI_SAFETY_SETTING: the threshold sent for every Gemini harm category. */
  readonly geminiSafetySetting?: string
}

/**
 * A token an upstream wants in place of the channel's key (Baidu's access token, a Google OAuth
 * token), and how to get it: the pipeline sends `request`, reads the answer with `parse`, caches
 * the token under `cacheKey` (and the channel) until shortly before it expires, and passes it to
 * buildRequest as ChannelCredentials.accessToken.
 */
export interface CredentialExchange {
  readonly kind: 'exchange'
  /** Names the credential the token is for (a hash of it, never the secret): a new key, a new token. */
  readonly cacheKey: string
  readonly request: UpstreamRequest
  /**
   * The token, or the failure classified like any upstream error: refused credentials disable the
   * channel, 429 and 5xx are retried on another channel.
   */
  parse(response: UpstreamResponse): ExchangedCredential | UpstreamError
}

export interface ExchangedCredential {
  readonly kind: 'credential'
  readonly token: string
  /** Unix seconds at which the upstream stops taking the token. */
  readonly expiresAt: number
}

/** The HTTP call the pipeline must make. `body` is the client's Buffer itself when nothing changed. */
export interface UpstreamRequest {
  readonly kind: 'request'
  readonly url: string
  /** GET only for a credential exchange (a relay call is always a POST). */
  readonly method: 'POST' | 'GET'
  readonly headers: Record<string, string>
  readonly body: Buffer | string
  /** True when the adaptor re-serialised the body (mapping, include_usage or system prompt applied). */
  readonly bodyRewritten: boolean
  /** True when the adaptor added include_usage itself: the usage-only chunk must not reach the client. */
  readonly dropUsageChunk: boolean
  /**
   * Set for an upstream spoken to over a WebSocket (a ws:// or wss:// URL): `body` is the first
   * message sent; every message received is handed on (to parseResponse gathered, or to the stream
   * transformer) followed by a line feed; the call ends when the upstream closes the socket or a
   * message `isLast` says so.
   */
  readonly webSocket?: { readonly isLast: (message: string) => boolean }
}

/** An upstream or adaptor failure, already classified for retry and auto-disable decisions. */
export interface UpstreamError {
  readonly kind: 'error'
  /** HTTP status to send the client. */
  readonly status: number
  readonly message: string
  readonly type: string
  readonly param: string | null
  readonly code: string | number | null
  /** Worth trying another channel (429, 5xx, timeouts, connection errors, bad channel keys). */
  readonly retryable: boolean
  /** The channel's credentials or account are unusable. */
  readonly disableChannel: boolean
  /** Seconds from the upstream's Retry-After header, when present. */
  readonly retryAfterSeconds?: number
  /** The upstream's own id of the request (`x-request-id`), passed on to the client. */
  readonly upstreamRequestId?: string
}

/** The upstream's reply as the pipeline received it. */
export interface UpstreamResponse {
  readonly status: number
  /** Header names lower-cased, as node:http and undici give them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly body: Buffer
}

export interface ParsedResponse {
  readonly kind: 'response'
  /** Bytes for the client: normally the upstream bytes untouched. */
  readonly body: Buffer
  /** Usage reported by the upstream, or undefined when it reported none. */
  readonly usage: Usage | undefined
  /**
   * Generated text for a local token count when `usage` is missing (chat/completions choices,
   * transcription text). Undefined when there is nothing to count.
   */
  readonly completionText?: string
  /** Images in an image generation answer (its `data` list), when the answer was read in full. */
  readonly imageCount?: number
  /**
   * The Content-Type of `body` when the adaptor built it in another format than the upstream's
   * answer (a chat completion gathered from an event stream); the upstream's otherwise.
   */
  readonly contentType?: string
}

/** Incremental stream handling for one response; create one per request. */
export interface StreamTransformer {
  /**
   * Feed one upstream chunk; returns what to write to the client now (empty when nothing): text,
   * or the chunk's own bytes. The transformer owns the chunk from then on: it may rewrite it in
   * place (the events it keeps moved up over those it drops) and hand back part of it, so a caller
   * must not reuse the chunk's memory.
   */
  push(chunk: Buffer): string | Buffer
  /**
   * Call at upstream end (or abort); returns the final text to write: what was still buffered and,
   * unless `complete` is false (the upstream broke off: the client must be able to tell the stream
   * was cut), the client API's closing event (OpenAI's `[DONE]`; Anthropic's `message_stop` when
   * the upstream's own did not come).
   */
  finish(complete?: boolean): string
  /** The last usage object seen in the stream. */
  readonly usage: Usage | undefined
  /** Accumulated generated text, capped (see completionTextLength for the full length). */
  readonly completionText: string
  /** Length in UTF-16 units of all generated text, including any part beyond the cap. */
  readonly completionTextLength: number
  /**
   * True once the upstream itself said its stream is complete (OpenAI's `data: [DONE]`,
   * Anthropic's `message_stop`); false for streams cut short.
   */
  readonly upstreamCompleted: boolean
  /**
   * True once an event that answers has been returned: anything but a chunk that only opens the
   * answer (a role and empty content), an error event or `[DONE]`. Until then the relay holds
   * back what it was given, so that a stream failing before its answer begins can still be
   * refunded and tried on another channel.
   */
  readonly answered: boolean
  /** How many keep-alive comments the upstream sent (passed on as comments). */
  readonly keepAlives: number
  /** An error object the upstream sent inside the stream, if any. */
  readonly streamError: UpstreamError | undefined
  /** The Content-Type of what the client gets; `text/event-stream` when absent. */
  readonly contentType?: string
}

/** A follow-up call of a multi-step upstream job (see TaskPlan): a GET with these headers. */
export interface FollowUpRequest {
  readonly url: string
  readonly headers: Record<string, string>
}

/**
 * What the pipeline does after one 2xx answer of a multi-step job: `done`, the answer is the
 * job's result (parseResponse reads it); `poll`, ask `request` after `afterMs`; `stream`, the
 * result is `request`'s event stream (read as a stream request's answer); an error ends the job.
 */
export type TaskStep =
  | { readonly kind: 'done' }
  | { readonly kind: 'poll'; readonly afterMs: number; readonly request: FollowUpRequest }
  | { readonly kind: 'stream'; readonly request: FollowUpRequest }
  | UpstreamError

/**
 * An upstream that answers a request with a job to follow (submit, then poll) instead of its
 * result. The pipeline sends buildRequest's request (its answer gathered, never streamed), then
 * follows the steps `next` decides, within `deadlineMs` from the first call's sending, and stops
 * when the client goes away. An answer that is not 2xx ends the job and goes to parseResponse.
 */
export interface TaskPlan {
  /** The most the whole job may take before it fails (504, not retried: the job may still run). */
  readonly deadlineMs: number
  /** Reads the first request's answer (step 0), then each follow-up's (step 1, 2, ...). Pure. */
  next(answer: UpstreamResponse, step: number): TaskStep
}

/**
 * Translates between the client's API and one upstream API. The body, stream events and errors an
 * adaptor returns are in the client's API (RelayRequest.clientApi); see registry.ts for how an
 * adaptor is chosen for a channel type and a client API.
 */
export interface Adaptor {
  /** A short name for logs and `owned_by`. */
  readonly name: string
  /**
   * Image URLs of the request the upstream cannot fetch itself: the pipeline fetches them (with a
   * size cap, a timeout and no private addresses) and passes them in RelayRequest.images.
   */
  remoteImages?(request: RelayRequest): string[]
  /**
   * For upstreams that take a token obtained from the channel's key rather than the key itself:
   * the exchange to make before buildRequest (see CredentialExchange), or the error when the
   * channel's key cannot be used at all. `now` is Unix seconds (signed assertions need the time).
   * When an upstream refuses a cached token (an error with disableChannel), the pipeline drops it,
   * exchanges again and retries once.
   */
  credentialExchange?(channel: ChannelCredentials, now: number): CredentialExchange | UpstreamError
  buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError
  parseResponse(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError
  /** Only for 2xx responses to stream requests with an event-stream Content-Type. */
  createStreamTransformer(request: RelayRequest, built: UpstreamRequest): StreamTransformer
  /** For a request the upstream serves as a job (asynchronous images, predictions): how to follow it. */
  task?(request: RelayRequest, channel: ChannelCredentials): TaskPlan | undefined
}

export const isUpstreamError = (value: { kind: string }): value is UpstreamError => value.kind === 'error'
