import type { z } from 'zod'
import { badRequest } from './errors.ts'

/** Parses untrusted input once, at the edge; the first problem becomes a 400 with a readable message. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input ?? {})
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const field = issue.path.length > 0 ? issue.path.join('.') : ''
  const message =
    issue.code === 'invalid_type' && field && !issue.message.includes(field)
      ? `${field}: ${issue.message}`
      : issue.message
  throw badRequest(message)
}
