/**
 * The closed set of error codes. Each maps once to an HTTP status; the management API renders
 * them in the `{success:false, message}` envelope, the relay in OpenAI's error shape.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  // A wrong password is a refused request, not a missing session (401 sends the console to sign in).
  invalid_credentials: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

export class AppError extends Error {
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
    this.status = ERROR_STATUS[code]
  }
}

export const badRequest = (message: string) => new AppError('invalid_request', message)
export const forbidden = (message: string) => new AppError('forbidden', message)
export const notFound = (message: string) => new AppError('not_found', message)
export const conflict = (message: string) => new AppError('conflict', message)
