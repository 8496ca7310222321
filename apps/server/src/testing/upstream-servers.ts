import { readFileSync } from 'node:fs'
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
} from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import {
  type AddressInfo,
  connect as connectNet,
  createServer as createNetServer,
  type Socket,
} from 'node:net'
import { afterEach } from 'vitest'
import { UpstreamClient, type UpstreamClientOptions } from '../relay/pipeline/upstream-client.ts'

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url))
/** A certificate for localhost and 127.0.0.1, made for these tests only, and its key. */
export const TEST_CERTIFICATE = { cert: fixture('localhost-cert.pem'), key: fixture('localhost-key.pem') }

/** A server of the tests on 127.0.0.1 (or `host`), with the connections it accepted counted. */
export interface TestServer {
  origin: string
  /** Connections accepted so far. */
  connections(): number
  close(): Promise<void>
}

async function listen(
  server: Server | ReturnType<typeof createNetServer>,
  scheme: string,
  host = '127.0.0.1',
): Promise<TestServer> {
  let accepted = 0
  const sockets = new Set<Socket>()
  // Every TCP connection is closed with the server; an https server counts only those whose
  // handshake succeeded.
  server.on('connection', (socket: Socket) => {
    if (scheme !== 'https') accepted += 1
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  if (scheme === 'https') server.on('secureConnection', () => (accepted += 1))
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `${scheme}://${host}:${port}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

export const httpServer = (listener: RequestListener) => listen(createHttpServer(listener), 'http')
export const httpsServer = (listener: RequestListener, host?: string) =>
  listen(createHttpsServer(TEST_CERTIFICATE, listener), 'https', host)
/** A server that writes whatever it likes on the socket (misbehaving upstreams). */
export const rawServer = (onConnection: (socket: Socket) => void) =>
  listen(createNetServer(onConnection), 'http')

/**
 * An HTTP proxy that opens CONNECT tunnels, as squid or any forward proxy does. With `credentials`
 * (`user:password`) it asks for them (407) and refuses tunnels without them.
 */
export async function connectProxy(credentials?: string) {
  const tunnels: string[] = []
  const server = createHttpServer((_request, response) => {
    response.writeHead(405)
    response.end()
  })
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    const expected = credentials && `Basic ${Buffer.from(credentials).toString('base64')}`
    if (expected && request.headers['proxy-authorization'] !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n')
      return
    }
    tunnels.push(request.url ?? '')
    const [host, port] = splitAuthority(request.url ?? '')
    const target = connectNet(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) target.write(head)
      target.pipe(client)
      client.pipe(target)
    })
    target.on('error', () => client.destroy())
    client.on('error', () => target.destroy())
  })
  const listening = await listen(server, 'http')
  return { ...listening, tunnels }
}

function splitAuthority(authority: string): [string, number] {
  const colon = authority.lastIndexOf(':')
  return [authority.slice(0, colon).replace(/^\[|\]$/g, ''), Number(authority.slice(colon + 1))]
}

/**
 * Servers and upstream clients for one test file, each closed after every test: `serve` keeps a
 * started server, `clientWith` makes a client (no RELAY_TIMEOUT and the default caps unless given).
 */
export function useUpstreamFixtures() {
  const servers: TestServer[] = []
  const clients: UpstreamClient[] = []
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()))
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })
  return {
    async serve<T extends TestServer>(server: Promise<T>): Promise<T> {
      const started = await server
      servers.push(started)
      return started
    },
    clientWith(options: Partial<UpstreamClientOptions> = {}): UpstreamClient {
      const client = new UpstreamClient({
        timeoutSeconds: 0,
        maxResponseBytes: 64 * 1024 * 1024,
        maxStreamSeconds: 0,
        ...options,
      })
      clients.push(client)
      return client
    },
  }
}
