import { describe, expect, it } from 'vitest'
import {
  connectProxy,
  httpServer,
  httpsServer,
  rawServer,
  TEST_CERTIFICATE,
  useUpstreamFixtures,
} from '../../testing/upstream-servers.ts'
import { readWholeBody } from './streamed-response.ts'
import type { UpstreamClient } from './upstream-client.ts'

const { serve, clientWith } = useUpstreamFixtures()
const trustTestAuthority = { ca: TEST_CERTIFICATE.cert }

/**
 * A call answered as a Node stream, read whole, and a turn after it (as between two clients'
 * requests: undici frees the connection after the handler heard the end).
 */
async function fetchText(client: UpstreamClient, url: string): Promise<string> {
  const response = await client.send({ url, method: 'GET', headers: {} }, { whole: true })
  const text = (await readWholeBody(response.body)).toString()
  await new Promise((resolve) => setImmediate(resolve))
  return text
}

describe('UpstreamClient over TLS and through RELAY_PROXY', () => {
  it('calls an https origin, verifying its certificate, on one kept-alive connection', async () => {
    const server = await serve(httpsServer((request, response) => response.end(`secure ${request.url}`)))
    const client = clientWith({ tls: trustTestAuthority })
    expect(await fetchText(client, `${server.origin}/a`)).toBe('secure /a')
    expect(await fetchText(client, `${server.origin}/b`)).toBe('secure /b')
    expect(server.connections()).toBe(1)
    // Without the test's authority the certificate is not trusted, and nothing is sent.
    await expect(fetchText(clientWith(), server.origin)).rejects.toMatchObject({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    })
  })

  it('tunnels http and https calls through the proxy, with its credentials', async () => {
    const proxy = await serve(connectProxy('relay:s3cret/+'))
    const plain = await serve(httpServer((_request, response) => response.end('plain')))
    const secure = await serve(httpsServer((_request, response) => response.end('secure')))
    const proxied = (credentials: string) =>
      clientWith({ tls: trustTestAuthority, proxy: proxy.origin.replace('://', `://${credentials}@`) })
    const client = proxied(`relay:${encodeURIComponent('s3cret/+')}`)
    expect(await fetchText(client, plain.origin)).toBe('plain')
    expect(await fetchText(client, secure.origin)).toBe('secure')
    expect(await fetchText(client, secure.origin)).toBe('secure')
    // One tunnel per connection, kept alive like any other.
    expect(proxy.tunnels).toEqual([plain.origin.slice(7), secure.origin.slice(8)])
    await expect(fetchText(proxied('relay:wrong'), plain.origin)).rejects.toThrow(/407/)
  })

  it('streams an answer as a Node stream, and stops the upstream when the reader leaves', async () => {
    let upstreamClosedEarly = false
    const server = await serve(
      httpServer((request, response) => {
        response.writeHead(200, { 'set-cookie': ['a=1', 'b=2'], 'content-type': 'text/plain' })
        if (request.url === '/whole') return void response.end('all of it')
        response.write('first')
        response.on('close', () => (upstreamClosedEarly = !response.writableFinished))
      }),
    )
    const client = clientWith()
    const send = (path: string) =>
      client.send({ url: `${server.origin}${path}`, method: 'GET', headers: {} }, { whole: false })
    const whole = await send('/whole')
    expect(whole.statusCode).toBe(200)
    expect(whole.headers['set-cookie']).toEqual(['a=1', 'b=2'])
    expect((await readWholeBody(whole.body)).toString()).toBe('all of it')
    const endless = await send('/endless')
    endless.body.destroy()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(upstreamClosedEarly).toBe(true)
  })

  it("checks an address origin's certificate against that address, through the proxy too", async () => {
    // The test certificate names 127.0.0.1 and localhost, not 127.0.0.2.
    const server = await serve(httpsServer((_request, response) => response.end('impostor'), '127.0.0.2'))
    const proxy = await serve(connectProxy())
    const mismatch = { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }
    await expect(fetchText(clientWith({ tls: trustTestAuthority }), server.origin)).rejects.toMatchObject(
      mismatch,
    )
    const proxied = clientWith({ tls: trustTestAuthority, proxy: proxy.origin })
    await expect(fetchText(proxied, server.origin)).rejects.toMatchObject(mismatch)
  })

  it('sends the origin name as TLS server name (SNI), never an address', async () => {
    const names: Array<string | false | null> = []
    const server = await serve(
      httpsServer((request, response) => {
        const socket = request.socket as import('node:tls').TLSSocket
        names.push(socket.servername)
        response.end('ok')
      }),
    )
    const port = new URL(server.origin).port
    await fetchText(clientWith({ tls: trustTestAuthority }), `https://localhost:${port}/`)
    await fetchText(clientWith({ tls: trustTestAuthority }), server.origin)
    expect(names).toEqual(['localhost', false])
  })

  it('times out a TLS handshake that stalls inside the tunnel', async () => {
    const silent = await serve(rawServer(() => {}))
    const proxy = await serve(connectProxy())
    const client = clientWith({ proxy: proxy.origin, connectTimeoutMs: 500 })
    await expect(fetchText(client, silent.origin.replace('http:', 'https:'))).rejects.toMatchObject({
      code: 'UND_ERR_CONNECT_TIMEOUT',
    })
  })

  it('keeps an error that comes before the body is read for its reader, instead of throwing it', async () => {
    const server = await serve(
      rawServer((socket) => {
        // The head and a broken chunk in one write: the error comes in the head's own read.
        socket.on('data', () =>
          socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n'),
        )
      }),
    )
    const response = await clientWith().send(
      { url: server.origin, method: 'GET', headers: {} },
      { whole: false },
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    await expect(readWholeBody(response.body)).rejects.toMatchObject({ name: 'HTTPParserError' })
  })
})
