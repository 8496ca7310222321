import { createServer } from 'node:net'

/** A TCP port on 127.0.0.1 that nothing listens on right now, for tests that spawn the server. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
