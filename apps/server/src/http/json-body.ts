import type { FastifyInstance } from 'fastify'

/**
 * JSON bodies as Fastify parses them (prototype poisoning refused), except that an empty body is
 * no body: scripts that send `Content-Type: application/json` on every call (a DELETE, a GET) are
 * served as one-api serves them, instead of being refused for an empty JSON body.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body)
    if (text.trim() === '') return done(null, undefined)
    parseJson(request, text, done)
  })
}
