import type { FastifyInstance } from 'fastify'
import { badRequest } from './errors.ts'

const NUL = '\u0000'

/**
 * The dotted path of the first string or object key in `value` that holds a NUL character
 * (`models.0`, `config.region`), `''` for the value itself, undefined when there is none.
 * Walks with a stack of its own, so no depth overflows it.
 */
export function pathOfNulByte(value: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[value, '']]
  while (pending.length > 0) {
    const [current, path] = pending.pop()!
    if (typeof current === 'string') {
      if (current.includes(NUL)) return path
      continue
    }
    if (typeof current !== 'object' || current === null) continue
    const entries = Array.isArray(current)
      ? current.map((item, index) => [String(index), item])
      : Object.entries(current)
    for (const [key, item] of entries.reverse()) {
      const childPath = path ? `${path}.${key}` : key
      if (key.includes(NUL)) return childPath
      pending.push([item, childPath])
    }
  }
  return undefined
}

const PLACES = [
  ['params', 'path parameter'],
  ['query', 'query parameter'],
  ['body', 'field'],
] as const

/**
 * Management routes refuse any text holding a NUL character (U+0000), in the path, the query or
 * anywhere in the JSON body, before the handler runs: PostgreSQL cannot store it, and a write
 * that failed on it halfway must never happen. The refusal names the field.
 */
export function installNulByteRefusal(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.routeOptions.config?.access === undefined) return done()
    for (const [place, label] of PLACES) {
      const path = pathOfNulByte(request[place])
      if (path === undefined) continue
      const name = path === '' ? 'The request body' : `The ${label} "${path}"`
      return done(badRequest(`${name} contains a NUL character (\\u0000), which cannot be stored: remove it`))
    }
    done()
  })
}
