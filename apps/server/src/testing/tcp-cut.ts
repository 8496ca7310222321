import { connect, createServer, type Server, type Socket } from 'node:net'
import { freePort } from './free-port.ts'

/**
 * A TCP forwarder that a test can cut, like a network partition between one node and a server:
 * `cut()` drops every open connection and refuses new ones until `restore()`;
 * `loseAnswerTo(marker)` lets the next request carrying `marker` reach the server, then drops its
 * connection before the client hears the answer (the server has done the work; the client cannot
 * know); `freeze()` makes the link a black hole until `thaw()`: connections stay open and new ones
 * are accepted, but nothing sent meanwhile arrives (a server that stopped answering).
 */
export class TcpCut {
  private readonly sockets = new Set<Socket>()
  private open = true
  private frozen = false
  private armed: { marker: string; afterMs: number; done(): void } | undefined

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<TcpCut> {
    const port = await freePort()
    const server = createServer()
    const cut = new TcpCut(server, port)
    server.on('connection', (client) => cut.forward(client, targetPort))
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    return cut
  }

  cut(): void {
    this.open = false
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
  }

  restore(): void {
    this.open = true
  }

  freeze(): void {
    this.frozen = true
  }

  thaw(): void {
    this.frozen = false
  }

  /**
   * The next connection that sends `marker` has every answer after it swallowed, and is dropped
   * `afterMs` later (time for the server to finish the work). Resolves once it was dropped.
   */
  loseAnswerTo(marker: string, afterMs = 200): Promise<void> {
    return new Promise((resolve) => {
      this.armed = { marker, afterMs, done: resolve }
    })
  }

  async close(): Promise<void> {
    this.cut()
    await new Promise((resolve) => this.server.close(resolve))
  }

  private forward(client: Socket, targetPort: number): void {
    if (!this.open) {
      client.destroy()
      return
    }
    const upstream = connect(targetPort, '127.0.0.1')
    let answersLost = false
    client.on('data', (data) => {
      const armed = this.armed
      if (!armed || answersLost || !data.toString('latin1').includes(armed.marker)) return
      this.armed = undefined
      answersLost = true
      setTimeout(() => {
        client.destroy()
        upstream.destroy()
        armed.done()
      }, armed.afterMs)
    })
    upstream.on('data', (data) => {
      if (!answersLost && !this.frozen && !client.destroyed) client.write(data)
    })
    client.on('data', (data) => {
      if (!this.frozen && !upstream.destroyed) upstream.write(data)
    })
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.sockets.add(from)
      from.on('error', () => to.destroy())
      from.on('close', () => {
        to.destroy()
        this.sockets.delete(from)
      })
    }
  }
}
