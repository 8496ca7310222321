import { connect as connectTcp, isIP, type Socket } from 'node:net'
import { type ConnectionOptions, connect as connectTls } from 'node:tls'
import { UpstreamSocketError } from './upstream-connection.ts'

/** RELAY_PROXY, read once. */
export interface ProxyTarget {
  host: string
  port: number
  /** An https:// proxy is reached over TLS itself. */
  secure: boolean
  /** `Basic ...` from the URL's user and password, if it has them. */
  authorization?: string
}

export function parseProxy(uri: string): ProxyTarget {
  const url = new URL(uri)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`RELAY_PROXY must be an http:// or https:// URL, not ${url.protocol}`)
  }
  const secure = url.protocol === 'https:'
  const credentials = url.username
    ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    : undefined
  return {
    host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    secure,
    authorization: credentials && `Basic ${Buffer.from(credentials).toString('base64')}`,
  }
}

/** The most a proxy's answer to CONNECT may hold before its blank line. */
const MAX_ANSWER_BYTES = 16 * 1024

/**
 * A TCP tunnel to `host:port` through an HTTP proxy (CONNECT, RFC 9110 §9.3.6), as undici's
 * ProxyAgent opens one for every origin: the origin's TLS, when it has one, runs inside it, so the
 * proxy sees neither the request nor the channel's key.
 */
export function openTunnel(
  proxy: ProxyTarget,
  host: string,
  port: number,
  timeoutMs: number,
  tls: ConnectionOptions | undefined,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket: Socket = proxy.secure
      ? connectTls({
          ...tls,
          host: proxy.host,
          port: proxy.port,
          servername: isIP(proxy.host) ? undefined : proxy.host,
        })
      : connectTcp({ host: proxy.host, port: proxy.port })
    const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`
    const authorization = proxy.authorization ? `proxy-authorization: ${proxy.authorization}\r\n` : ''
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n${authorization}\r\n`, 'latin1')
    let answer = Buffer.alloc(0)
    const fail = (error: Error) => {
      cleanUp()
      socket.destroy()
      reject(error)
    }
    const timer = setTimeout(
      () =>
        fail(new UpstreamSocketError('the proxy did not open a tunnel in time', 'UND_ERR_CONNECT_TIMEOUT')),
      timeoutMs,
    )
    const onData = (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk])
      const end = answer.indexOf('\r\n\r\n')
      if (end === -1) {
        if (answer.length > MAX_ANSWER_BYTES) {
          fail(
            new UpstreamSocketError('the proxy answered CONNECT with too long a head', 'PROXY_TUNNEL_FAILED'),
          )
        }
        return
      }
      const statusLine = answer.toString('latin1', 0, answer.indexOf('\r\n'))
      const status = Number(statusLine.slice(9, 12))
      if (!statusLine.startsWith('HTTP/1.') || status < 200 || status > 299) {
        // The proxy's status is the one fact kept: its host is configuration users must not see.
        return fail(
          new UpstreamSocketError(
            `the proxy refused the tunnel (HTTP ${status || '?'})`,
            'PROXY_TUNNEL_FAILED',
          ),
        )
      }
      cleanUp()
      // Paused until its new reader listens (UpstreamConnection resumes it): nothing is read into
      // the void meanwhile. Nothing should follow the proxy's answer before the client speaks;
      // anything that did is kept for that reader.
      socket.pause()
      if (answer.length > end + 4) socket.unshift(answer.subarray(end + 4))
      resolve(socket)
    }
    const onError = (error: Error) => fail(error)
    const onClose = () =>
      fail(
        new UpstreamSocketError('the proxy closed the connection before the tunnel opened', 'UND_ERR_SOCKET'),
      )
    const cleanUp = () => {
      clearTimeout(timer)
      socket.off('data', onData)
      socket.off('error', onError)
      socket.off('close', onClose)
    }
    socket.on('data', onData)
    socket.on('error', onError)
    socket.on('close', onClose)
  })
}
