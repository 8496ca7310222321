import { describe, expect, it } from 'vitest'
import { parseProxy } from './proxy-tunnel.ts'
import { readWholeBody, StreamedResponseHandler } from './streamed-response.ts'
import {
  call,
  connectProxy,
  httpServer,
  httpsServer,
  rawServer,
  TEST_CERTIFICATE,
  type TestServer,
  useAgentFixtures,
} from './testing.ts'

const { serve, agentWith } = useAgentFixtures()
const trustTestAuthority = { ca: TEST_CERTIFICATE.cert }

describe('UpstreamAgent over TLS and through RELAY_PROXY', () => {
  it('calls an https origin, verifying its certificate', async () => {
    const server = await serve(httpsServer((request, response) => response.end(`secure ${request.url}`)))
    const agent = agentWith({ tls: trustTestAuthority })
    expect((await call(agent, server.origin, { path: '/a' })).body).toBe('secure /a')
    expect((await call(agent, server.origin, { path: '/b' })).body).toBe('secure /b')
    expect(server.connections()).toBe(1)
    // Without the test's authority the certificate is not trusted, and nothing is sent.
    await expect(call(agentWith(), server.origin)).rejects.toMatchObject({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    })
  })

  it('tunnels http and https calls through the proxy, with its credentials', async () => {
    const proxy = await serve(connectProxy('relay:s3cret/+'))
    const plain = await serve(httpServer((_request, response) => response.end('plain')))
    const secure = await serve(httpsServer((_request, response) => response.end('secure')))
    const proxied = (credentials: string) =>
      agentWith({
        tls: trustTestAuthority,
        proxy: parseProxy(proxy.origin.replace('://', `://${credentials}@`)),
      })
    const agent = proxied(`relay:${encodeURIComponent('s3cret/+')}`)
    expect((await call(agent, plain.origin)).body).toBe('plain')
    expect((await call(agent, secure.origin)).body).toBe('secure')
    expect((await call(agent, secure.origin)).body).toBe('secure')
    // One tunnel per connection, kept alive like any other.
    expect(proxy.tunnels).toEqual([plain.origin.slice(7), secure.origin.slice(8)])
    await expect(call(proxied('relay:wrong'), plain.origin)).rejects.toMatchObject({
      code: 'PROXY_TUNNEL_FAILED',
      message: 'the proxy refused the tunnel (HTTP 407)',
    })
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
    const agent = agentWith()
    const send = (path: string) => {
      const handler = new StreamedResponseHandler(undefined)
      agent.dispatch({ origin: server.origin, path, method: 'GET', headers: {} }, handler)
      return handler.response
    }
    const whole = await send('/whole')
    expect(whole.statusCode).toBe(200)
    expect(whole.headers['set-cookie']).toEqual(['a=1', 'b=2'])
    expect((await readWholeBody(whole.body)).toString()).toBe('all of it')
    const endless = await send('/endless')
    endless.body.destroy()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(upstreamClosedEarly).toBe(true)
  })

  it("checks an address origin's certificate against that address, through the proxy too", async () => {
    // The test certificate names 127.0.0.1 and localhost, not 127.0.0.2.
    const server = await serve(httpsServer((_request, response) => response.end('impostor'), '127.0.0.2'))
    const proxy = await serve(connectProxy())
    const mismatch = { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }
    await expect(call(agentWith({ tls: trustTestAuthority }), server.origin)).rejects.toMatchObject(mismatch)
    const proxied = agentWith({ tls: trustTestAuthority, proxy: parseProxy(proxy.origin) })
    await expect(call(proxied, server.origin)).rejects.toMatchObject(mismatch)
  })

  it('times out a TLS handshake that stalls inside the tunnel', async () => {
    const silent = await serve(rawServer(() => {}))
    const proxy = await serve(connectProxy())
    const agent = agentWith({ proxy: parseProxy(proxy.origin), connectTimeoutMs: 200 })
    await expect(call(agent, silent.origin.replace('http:', 'https:'))).rejects.toMatchObject({
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
    const handler = new StreamedResponseHandler(undefined)
    agentWith().dispatch({ origin: server.origin, path: '/', method: 'GET', headers: {} }, handler)
    const response = await handler.response
    await new Promise((resolve) => setTimeout(resolve, 20))
    await expect(readWholeBody(response.body)).rejects.toMatchObject({ code: 'UPSTREAM_HTTP_PARSE_ERROR' })
  })
})
