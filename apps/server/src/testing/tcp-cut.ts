import { connect, createServer, type Server, type Socket } from 'node:net'
import { freePort } from './free-port.ts'

/**
 * A TCP forwarder that a test can cut, like a network partition between one node and Redis:
 * `cut()` drops every open connection and refuses new ones until `restore()`.
 */
export class TcpCut {
  private readonly sockets = new Set<Socket>()
  private open = true

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
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.sockets.add(from)
      from.pipe(to)
      from.on('error', () => to.destroy())
      from.on('close', () => {
        to.destroy()
        this.sockets.delete(from)
      })
    }
  }
}
