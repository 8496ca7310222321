/**
 * Errors of the relay in OpenAI's shape: `{"error":{"message","type","param","code"}}` with the
 * right HTTP status. One class for every failure the relay itself produces.
 */
export class RelayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly type = 'one_api_error',
    readonly param: string | null = null,
  ) {
    super(message)
  }

  /**
   * Headers of the answer: OpenAI's SDKs retry every 5xx (three times by default, 1.5 s in all)
   * unless `x-should-retry: false` says trying again cannot help, as for an endpoint not
   * implemented or a model no channel serves.
   */
  headers(): Record<string, string> | undefined {
    return this.status === 501 || this.code === 'no_available_channel'
      ? { 'x-should-retry': 'false' }
      : undefined
  }

  toBody(requestId?: string) {
    const message = requestId ? `${this.message} (request id: ${requestId})` : this.message
    return { error: { message, type: this.type, param: this.param, code: this.code } }
  }
}

/** The refusal of a request that reaches a node shutting down. */
export const shuttingDown = () =>
  new RelayError(503, 'The gateway is shutting down; retry on another node', 'shutting_down')

/**
 * The database did not take a request's reservation, after its retries (write-retries.ts): nothing
 * was sent upstream, and the client may try again (it got a bare 500 before).
 */
export const billingUnavailable = () =>
  new RelayError(
    503,
    'The gateway could not reserve quota for this request: its database did not answer. Try again shortly',
    'billing_unavailable',
  )

/** A token whose last charge the database did not take yet: served again once it has (fail closed). */
export const chargesPending = () =>
  new RelayError(
    503,
    'A charge of this token could not be stored in the database yet, so it is refused new requests until it is; the operator has been told. Try again later',
    'billing_unavailable',
  )

/** Answers a RelayError in OpenAI's shape; anything else is rethrown for the error handler. */
export function sendRelayError(
  reply: {
    code(status: number): { headers(values: Record<string, string>): { send(body: unknown): unknown } }
  },
  error: unknown,
  requestId: string,
) {
  if (error instanceof RelayError)
    return reply
      .code(error.status)
      .headers(error.headers() ?? {})
      .send(error.toBody(requestId))
  throw error
}

/** A channel named by the request (a pinned key, the proxy route's path) that does not exist. */
export const channelNotFound = (id: number) =>
  new RelayError(400, `Channel #${id} does not exist`, 'invalid_channel_id', 'invalid_request_error')

/** A channel named by the request that an administrator disabled. */
export const channelDisabled = (id: number) =>
  new RelayError(403, `Channel #${id} is disabled`, 'channel_disabled')
