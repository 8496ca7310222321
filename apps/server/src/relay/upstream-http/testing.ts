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
import { UpstreamAgent } from './upstream-agent.ts'
import type { CallHandler } from './upstream-connection.ts'

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

export interface CallResult {
  status: number
  headers: string[]
  body: string
}

/** A call through the agent, read whole; `handle` gets the abort function and the live handler. */
export function call(
  agent: UpstreamAgent,
  origin: string,
  options: {
    path?: string
    method?: string
    headers?: Record<string, string>
    body?: string
    onData?: (chunk: Buffer) => boolean
    onConnect?: (abort: (reason?: Error) => void) => void
    onHeaders?: (resume: () => void) => void
  } = {},
): Promise<CallResult> {
  return new Promise((resolve, reject) => {
    let status = 0
    let headers: string[] = []
    const chunks: Buffer[] = []
    const handler: CallHandler = {
      onConnect: (abort) => options.onConnect?.(abort),
      onHeaders: (code, raw, resume) => {
        status = code
        headers = raw
        options.onHeaders?.(resume)
        return true
      },
      onData: (chunk) => {
        chunks.push(Buffer.from(chunk))
        return options.onData ? options.onData(chunk) : true
      },
      onComplete: () => resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8') }),
      onError: reject,
    }
    agent.dispatch(
      {
        origin,
        path: options.path ?? '/',
        method: options.method ?? 'POST',
        headers: options.headers ?? {},
        body: options.body,
      },
      handler,
    )
  })
}

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
 * Servers and agents for one test file, each closed after every test: `serve` keeps a started
 * server, `agentWith` makes an agent.
 */
export function useAgentFixtures() {
  const servers: TestServer[] = []
  const agents: UpstreamAgent[] = []
  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.close()
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })
  return {
    async serve<T extends TestServer>(server: Promise<T>): Promise<T> {
      const started = await server
      servers.push(started)
      return started
    },
    agentWith(options: ConstructorParameters<typeof UpstreamAgent>[0] = {}): UpstreamAgent {
      const agent = new UpstreamAgent(options)
      agents.push(agent)
      return agent
    },
  }
}
