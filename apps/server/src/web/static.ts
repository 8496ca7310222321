import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

const DEFAULT_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url))

/**
 * Serves the built console. Hashed files under /assets/ never change, so browsers may keep them a
 * year; index.html is revalidated so a new release is picked up at once. Unknown non-API paths
 * get index.html and the console's router decides (its not-found page included).
 */
export async function installWebConsole(app: FastifyInstance, distPath?: string): Promise<void> {
  const root = resolve(distPath ?? DEFAULT_DIST)
  const built = existsSync(resolve(root, 'index.html'))
  if (built) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders: (response, path) => {
        const hashed = path.includes(`${'/'}assets${'/'}`)
        response.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]
    if (path.startsWith('/api/') || path === '/api') {
      return reply.status(404).send({ success: false, message: `Invalid URL (${request.method} ${path})` })
    }
    if (path.startsWith('/v1/') || path.startsWith('/dashboard/')) {
      // With its request id, as every relay error message carries it.
      return reply.status(404).send({
        error: {
          message: `Invalid URL (${request.method} ${path}) (request id: ${request.id})`,
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      })
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.status(404).send({ success: false, message: 'Not found' })
    }
    if (!built) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The console has not been built. Run `npm run build` (npm start does this for you).')
    }
    reply.header('Cache-Control', 'no-cache')
    return reply.sendFile('index.html')
  })
}
