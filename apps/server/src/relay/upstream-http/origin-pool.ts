import { connect as connectTcp, isIP, type Socket } from 'node:net'
import { type ConnectionOptions, connect as connectTls } from 'node:tls'
import { openTunnel, type ProxyTarget } from './proxy-tunnel.ts'
import {
  type CallHandler,
  type ConnectionOwner,
  type OutgoingRequest,
  UpstreamConnection,
  UpstreamSocketError,
} from './upstream-connection.ts'

export interface PoolOptions {
  /** Most connections open at once to one origin; calls beyond wait for one to be free. */
  connections: number
  /** RELAY_TIMEOUT: the most an upstream may take to its answer's head, then between two pieces of its body. 0: none. */
  timeoutMs: number
  /** How long an idle connection is kept when the upstream announces no keep-alive time. */
  keepAliveMs: number
  connectTimeoutMs: number
  /** RELAY_PROXY: every connection is a tunnel through this HTTP(S) proxy. */
  proxy?: ProxyTarget
  /** Extra TLS settings (tests trust their own certificate authority with `ca`). */
  tls?: ConnectionOptions
}

interface Waiting {
  request: OutgoingRequest
  handler: CallHandler
}

/**
 * A connection idle for longer than this is checked one turn of the event loop before it carries
 * a call: an upstream that closed it meanwhile has had its FIN read by then, so the call goes on a
 * new connection instead of failing on a dead one. Busier connections (every one under load) are
 * written at once; no upstream closes a connection idle for less.
 */
const CHECK_AFTER_IDLE_MS = 1_000
const SWEEP_INTERVAL_MS = 1_000
/** TCP keep-alive probes on idle connections, as undici sets them. */
const TCP_KEEPALIVE_DELAY_MS = 60_000
const closedError = () => new UpstreamSocketError('the upstream client is closed', 'UND_ERR_DESTROYED')

/**
 * The keep-alive connections to one upstream origin (`http://host:port` or `https://...`). A call
 * takes the most recently released idle connection, whose socket is the warmest and the least
 * likely to have been closed by the upstream's idle timer, or opens a new one.
 */
export class OriginPool implements ConnectionOwner {
  private readonly idle: UpstreamConnection[] = []
  private readonly open = new Set<UpstreamConnection>()
  /** Connections being set up (a proxy tunnel): they count towards the limit. */
  private opening = 0
  private readonly waiting: Waiting[] = []
  private readonly secure: boolean
  private readonly host: string
  private readonly port: number
  /** The Host header's value: host and port as the URL gives them (a default port left out). */
  readonly hostHeader: string
  private sweeper: NodeJS.Timeout | undefined
  private closing = false

  constructor(
    origin: string,
    private readonly options: PoolOptions,
  ) {
    const url = new URL(origin)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UpstreamSocketError(`unsupported protocol ${url.protocol}`, 'ERR_INVALID_URL')
    }
    this.secure = url.protocol === 'https:'
    // An IPv6 literal is written in brackets in a URL, and without them to connect().
    this.host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
    this.port = url.port ? Number(url.port) : this.secure ? 443 : 80
    this.hostHeader = url.host
  }

  /** Connections open now, idle or busy (tests read it). */
  get openConnections(): number {
    return this.open.size
  }

  dispatch(request: OutgoingRequest, handler: CallHandler): void {
    if (this.closing) {
      handler.onError(closedError())
      return
    }
    const now = performance.now()
    const connection = this.takeIdle(now)
    if (!connection) {
      this.connectFor(request, handler)
    } else if (now - connection.idleSince < CHECK_AFTER_IDLE_MS) {
      connection.send(request, handler)
    } else {
      setImmediate(() => this.sendAfterCheck(connection, request, handler))
    }
  }

  private sendAfterCheck(
    connection: UpstreamConnection,
    request: OutgoingRequest,
    handler: CallHandler,
  ): void {
    if (connection.usable) {
      connection.send(request, handler)
    } else {
      connection.close()
      this.open.delete(connection)
      this.dispatch(request, handler)
    }
  }

  released(connection: UpstreamConnection, reusable: boolean): void {
    if (!reusable) {
      if (!this.open.delete(connection)) return
      const at = this.idle.indexOf(connection)
      if (at !== -1) this.idle.splice(at, 1)
      // A call that waited for a free connection gets a new one.
      const next = this.waiting.shift()
      if (next) this.connectFor(next.request, next.handler)
      return
    }
    const next = this.waiting.shift()
    if (next) {
      this.sendAfterCheck(connection, next.request, next.handler)
      return
    }
    connection.idleSince = performance.now()
    this.idle.push(connection)
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref()
  }

  /** Closes every connection; calls in flight and waiting end in an error. */
  close(): void {
    this.closing = true
    if (this.sweeper) clearInterval(this.sweeper)
    for (const { handler } of this.waiting.splice(0)) handler.onError(closedError())
    for (const connection of [...this.open]) connection.closeWith(closedError())
  }

  private takeIdle(now: number): UpstreamConnection | undefined {
    while (this.idle.length > 0) {
      const connection = this.idle.pop()!
      if (connection.usable && now - connection.idleSince < connection.keepAliveMs) return connection
      connection.close()
      this.open.delete(connection)
    }
    return undefined
  }

  /** Closes the connections idle for longer than their keep-alive time (the oldest lead the list). */
  private sweep(): void {
    const now = performance.now()
    let expired = 0
    while (expired < this.idle.length) {
      const connection = this.idle[expired]!
      if (connection.usable && now - connection.idleSince < connection.keepAliveMs) break
      expired += 1
    }
    for (const connection of this.idle.splice(0, expired)) {
      connection.close()
      this.open.delete(connection)
    }
    if (this.idle.length === 0 && this.sweeper) {
      clearInterval(this.sweeper)
      this.sweeper = undefined
    }
  }

  /** A new connection for the call, or a place in the queue when the origin's limit is reached. */
  private connectFor(request: OutgoingRequest, handler: CallHandler): void {
    if (this.open.size + this.opening >= this.options.connections) {
      this.waiting.push({ request, handler })
      return
    }
    const proxy = this.options.proxy
    if (!proxy) {
      this.adopt(this.connectDirectly()).send(request, handler)
      return
    }
    this.opening += 1
    openTunnel(proxy, this.host, this.port, this.options.connectTimeoutMs, this.options.tls).then(
      (tunnel) => {
        this.opening -= 1
        if (this.closing) {
          tunnel.destroy()
          handler.onError(closedError())
          return
        }
        this.adopt(this.secure ? this.withConnectTimer(this.startTls(tunnel)) : tunnel).send(request, handler)
      },
      (error: Error) => {
        this.opening -= 1
        handler.onError(error)
        const next = this.waiting.shift()
        if (next) this.connectFor(next.request, next.handler)
      },
    )
  }

  private connectDirectly(): Socket {
    return this.withConnectTimer(
      this.secure ? this.startTls(undefined) : connectTcp({ host: this.host, port: this.port }),
    )
  }

  /** Fails a connection whose TCP connect (or TLS handshake) takes longer than connectTimeoutMs. */
  private withConnectTimer(socket: Socket): Socket {
    const connectTimer = setTimeout(() => {
      socket.destroy(
        new UpstreamSocketError('connecting to the upstream timed out', 'UND_ERR_CONNECT_TIMEOUT'),
      )
    }, this.options.connectTimeoutMs)
    socket.once(this.secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer))
    socket.once('close', () => clearTimeout(connectTimer))
    return socket
  }

  /** TLS to the origin, over `tunnel` when it comes through a proxy. Certificates are verified. */
  private startTls(tunnel: Socket | undefined): Socket {
    return connectTls({
      ...this.options.tls,
      // Over a tunnel, `host` is only the name the certificate is checked against (without it,
      // Node checks an address origin's certificate against the proxy's name).
      host: this.host,
      ...(tunnel ? { socket: tunnel } : { port: this.port }),
      // SNI takes a name, never an address (RFC 6066 §3).
      servername: isIP(this.host) ? undefined : this.host,
      ALPNProtocols: ['http/1.1'],
    })
  }

  private adopt(socket: Socket): UpstreamConnection {
    socket.setNoDelay(true)
    socket.setKeepAlive(true, TCP_KEEPALIVE_DELAY_MS)
    const connection = new UpstreamConnection(socket, this, this.options.timeoutMs, this.options.keepAliveMs)
    this.open.add(connection)
    return connection
  }
}
