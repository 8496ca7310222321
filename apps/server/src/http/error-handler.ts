import type { FastifyError, FastifyInstance } from 'fastify'
import { AppError } from './errors.ts'

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but Content-Type is application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type: send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body',
}

/** Maps any thrown error to a status and the management API envelope (relay routes set their own). */
export function toEnvelopeError(error: FastifyError | AppError | Error): { status: number; message: string } {
  if (error instanceof AppError) return { status: error.status, message: error.message }
  const framework = error as FastifyError
  if (framework.statusCode && framework.statusCode >= 400 && framework.statusCode < 500) {
    const message = (framework.code && FRAMEWORK_MESSAGES[framework.code]) ?? framework.message
    const invalidJson =
      framework.statusCode === 400 &&
      /JSON/i.test(framework.message) &&
      framework.code?.startsWith('FST_ERR_CTP')
    return {
      status: framework.statusCode,
      message: invalidJson ? FRAMEWORK_MESSAGES.FST_ERR_CTP_INVALID_JSON_BODY : message,
    }
  }
  return { status: 500, message: 'Internal server error: please contact the administrator' }
}

/**
 * The HTTP status of a refused management call, as one-api answers: 200 with `success:false`
 * (its console and scripts read the envelope and show the message), except 401 when the caller is
 * not signed in (the console goes back to the sign-in page), 429 for rate limits and 500 for a
 * fault of the server itself.
 */
export function envelopeStatus(status: number): number {
  return status === 401 || status === 429 || status === 500 ? status : 200
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, message } = toEnvelopeError(error)
    if (status >= 500) request.log.error({ err: error }, 'request failed')
    reply.status(envelopeStatus(status)).send({ success: false, message })
  })
}
