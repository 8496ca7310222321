import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/**
 * The server's connections and how many requests each is answering. At shutdown, every connection
 * answering nothing is closed: the idle keep-alive ones, and also those that never sent a request.
 * Node's closeIdleConnections() leaves the latter open (a connection counts as busy from its
 * accept until its first request is read), and server.close() then waits for them as long as the
 * client keeps them: Node's own fetch opens such a connection after a request it aborted.
 */
export function trackOpenConnections(server: Server): { closeUnanswering(): void } {
  const answering = new Map<Socket, number>()
  server.on('connection', (socket: Socket) => {
    answering.set(socket, 0)
    socket.once('close', () => answering.delete(socket))
  })
  server.on('request', (request, response) => {
    const socket = request.socket
    answering.set(socket, (answering.get(socket) ?? 0) + 1)
    response.once('close', () => {
      const count = answering.get(socket)
      if (count !== undefined) answering.set(socket, count - 1)
    })
  })
  return {
    closeUnanswering() {
      for (const [socket, count] of answering) if (count <= 0) socket.destroy()
    },
  }
}
