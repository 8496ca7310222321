import { parseRowId } from '@one-api/contracts/user-admin'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { badRequest } from './errors.ts'
import { parseInput } from './validate.ts'

const MAX_SEARCH_LENGTH = 100

const pageQuerySchema = z.object({
  // A repeated `p` arrives as an array and fails the string check: a clear 400, not a guess.
  p: z
    .string({ error: 'p must be a page number (0, 1, 2, ...)' })
    .regex(/^\d{0,9}$/, 'p must be a page number (0, 1, 2, ...)')
    .optional(),
})

const idParamsSchema = z.object({
  id: z
    .string()
    .refine((text) => parseRowId(text) !== undefined, 'id must be a positive integer')
    .transform(Number),
})

/** The 0-based page index `p` of a list call; absent or blank means the first page. */
export function pageOf(request: FastifyRequest): number {
  const { p } = parseInput(pageQuerySchema, request.query)
  return p ? Number(p) : 0
}

/** The numeric `:id` of a path; anything else is a 400 before any query runs. */
export function idOf(request: FastifyRequest): number {
  return parseInput(idParamsSchema, request.params).id
}

/** A single optional query string value, trimmed (the console's search terms are trimmed). */
export function queryText(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name]
  if (value === undefined) return ''
  if (typeof value !== 'string') throw badRequest(`${name} must be given once`)
  const text = value.trim()
  if (text.length > MAX_SEARCH_LENGTH)
    throw badRequest(`${name} must be at most ${MAX_SEARCH_LENGTH} characters`)
  return text
}
