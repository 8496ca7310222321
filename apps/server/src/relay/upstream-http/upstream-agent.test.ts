import type { IncomingMessage } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { call, httpServer, rawServer, type TestServer, useAgentFixtures } from './testing.ts'

const { serve, agentWith } = useAgentFixtures()
const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => resolve(body))
  })

describe('UpstreamAgent', () => {
  it('sends the method, path, headers and body, and reads the answer', async () => {
    let seen: { method?: string; url?: string; headers?: Record<string, unknown>; body?: string } = {}
    const server = await serve(
      httpServer(async (request, response) => {
        seen = {
          method: request.method,
          url: request.url,
          headers: request.headers,
          body: await readBody(request),
        }
        response.writeHead(201, { 'x-answer': 'yes', 'content-type': 'application/json' })
        response.end('{"ok":true}')
      }),
    )
    const answer = await call(agentWith(), server.origin, {
      path: '/v1/chat/completions?x=1',
      headers: { authorization: 'Bearer sk-1', 'content-type': 'application/json' },
      body: '{"model":"m","text":"héllo"}',
    })
    expect(answer.status).toBe(201)
    expect(answer.body).toBe('{"ok":true}')
    expect(answer.headers).toContain('x-answer')
    expect(seen.method).toBe('POST')
    expect(seen.url).toBe('/v1/chat/completions?x=1')
    expect(seen.body).toBe('{"model":"m","text":"héllo"}')
    expect(seen.headers).toMatchObject({
      authorization: 'Bearer sk-1',
      host: server.origin.slice('http://'.length),
      'content-length': String(Buffer.byteLength('{"model":"m","text":"héllo"}')),
    })
  })

  it('says a length of 0 for a PUT or POST without a body, and none for a GET', async () => {
    const lengths: Array<string | undefined> = []
    const server = await serve(
      httpServer((request, response) => {
        lengths.push(request.headers['content-length'])
        response.end()
      }),
    )
    const agent = agentWith()
    for (const method of ['PUT', 'POST', 'GET']) await call(agent, server.origin, { method })
    expect(lengths).toEqual(['0', '0', undefined])
  })

  it('carries calls one after the other on one kept-alive connection', async () => {
    const server = await serve(httpServer((_request, response) => response.end('ok')))
    const agent = agentWith()
    for (let index = 0; index < 5; index++) expect((await call(agent, server.origin)).body).toBe('ok')
    expect(server.connections()).toBe(1)
  })

  it('opens a new connection after an answer with Connection: close', async () => {
    const server = await serve(
      httpServer((_request, response) => {
        response.setHeader('connection', 'close')
        response.end('ok')
      }),
    )
    const agent = agentWith()
    await call(agent, server.origin)
    await call(agent, server.origin)
    expect(server.connections()).toBe(2)
  })

  it('uses a new connection when the upstream closed the idle one', async () => {
    const server = await serve(
      rawServer((socket) => {
        socket.on('data', () => {
          // Answered as reusable, then closed soon after, as an upstream's idle timer does.
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')
          setTimeout(() => socket.destroy(), 20)
        })
      }),
    )
    const agent = agentWith()
    await call(agent, server.origin)
    await sleep(100)
    expect(agent.openConnections(server.origin)).toBe(0)
    expect((await call(agent, server.origin)).body).toBe('ok')
    expect(server.connections()).toBe(2)
  })

  it('does not keep an idle connection past the keep-alive time the upstream announced', async () => {
    const server = await serve(
      httpServer((_request, response) => {
        // 3 s announced: trusted for 1 s (2 s are kept as a margin).
        response.setHeader('keep-alive', 'timeout=3')
        response.end('ok')
      }),
    )
    const agent = agentWith()
    await call(agent, server.origin)
    await call(agent, server.origin)
    expect(server.connections()).toBe(1)
    await sleep(1_200)
    await call(agent, server.origin)
    expect(server.connections()).toBe(2)
  })

  it('opens at most `connections` connections to an origin; the other calls wait their turn', async () => {
    const server = await serve(
      httpServer((_request, response) => {
        setTimeout(() => response.end('ok'), 30)
      }),
    )
    const agent = agentWith({ connections: 2 })
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(agent, server.origin)))
    expect(answers.map((answer) => answer.body)).toEqual(Array(6).fill('ok'))
    expect(server.connections()).toBe(2)
  })

  it('aborts a call: the handler hears the reason once and the upstream sees its connection close', async () => {
    let upstreamClosed = false
    const server = await serve(
      httpServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        response.write('data: 1\n\n')
        response.on('close', () => (upstreamClosed = true))
      }),
    )
    let abort: ((reason?: Error) => void) | undefined
    const pending = call(agentWith(), server.origin, { onConnect: (fn) => (abort = fn), onData: () => true })
    await sleep(50)
    abort!(new Error('client left'))
    await expect(pending).rejects.toThrow('client left')
    await sleep(50)
    expect(upstreamClosed).toBe(true)
  })

  it("a call's late abort or resume does not touch the next call on its connection", async () => {
    const server = await serve(httpServer((_request, response) => response.end('ok')))
    const agent = agentWith()
    let staleAbort: ((reason?: Error) => void) | undefined
    let staleResume: (() => void) | undefined
    await call(agent, server.origin, {
      onConnect: (fn) => (staleAbort = fn),
      onHeaders: (fn) => (staleResume = fn),
    })
    const next = call(agent, server.origin)
    staleAbort!(new Error('too late'))
    staleResume!()
    expect((await next).body).toBe('ok')
    expect(server.connections()).toBe(1)
  })

  it('times out an upstream slow to answer, and one that stalls mid-body, with the codes the relay maps to 504', async () => {
    const server = await serve(
      httpServer((request, response) => {
        if (request.url === '/slow-head') return void setTimeout(() => response.end('late'), 1_000)
        if (request.url === '/stall') return void response.write('started')
        // A slow stream that keeps coming is not cut: the limit is per pause, not for the whole.
        let sent = 0
        const timer = setInterval(() => {
          response.write(`piece ${sent}\n`)
          if (++sent === 6) {
            clearInterval(timer)
            response.end()
          }
        }, 100)
      }),
    )
    const agent = agentWith({ timeoutMs: 300 })
    await expect(call(agent, server.origin, { path: '/slow-head' })).rejects.toMatchObject({
      code: 'UND_ERR_HEADERS_TIMEOUT',
    })
    await expect(call(agent, server.origin, { path: '/stall' })).rejects.toMatchObject({
      code: 'UND_ERR_BODY_TIMEOUT',
    })
    expect((await call(agent, server.origin, { path: '/trickle' })).body).toContain('piece 5')
  })

  it('reports an origin that refuses connections with the socket error code', async () => {
    const server = await serve(httpServer((_request, response) => response.end()))
    const origin = server.origin
    await server.close()
    await expect(call(agentWith(), origin)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
  })

  it('refuses a header value with a line break before anything is sent', async () => {
    const server = await serve(httpServer((_request, response) => response.end('ok')))
    await expect(
      call(agentWith(), server.origin, { headers: { 'x-a': 'b\r\nx-injected: 1' } }),
    ).rejects.toMatchObject({ code: 'UND_ERR_INVALID_ARG' })
    expect(server.connections()).toBe(0)
  })

  it('does not reuse a connection on which the upstream sent two answers to one request', async () => {
    let answered = 0
    const server = await serve(
      rawServer((socket) => {
        socket.on('data', () => {
          answered += 1
          const body = `answer ${answered}`
          const one = `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`
          // The first connection's first answer comes with a smuggled second one.
          socket.write(answered === 1 ? one + one.replace('answer 1', 'extra 1') : one)
        })
      }),
    )
    const agent = agentWith()
    expect((await call(agent, server.origin)).body).toBe('answer 1')
    expect((await call(agent, server.origin)).body).toBe('answer 2')
    expect(server.connections()).toBe(2)
  })

  it('fails a call whose answer is cut, with the socket code the relay retries on', async () => {
    const server = await serve(
      rawServer((socket) => {
        socket.on('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort'))
      }),
    )
    await expect(call(agentWith(), server.origin)).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' })
  })

  it('pauses the upstream while the handler is behind, and goes on when it resumes', async () => {
    const pieceCount = 64
    let backedUp = false
    const server = await serve(
      httpServer((_request, response) => {
        response.writeHead(200)
        let sent = 0
        const write = () => {
          while (sent < pieceCount) {
            sent += 1
            if (!response.write(Buffer.alloc(64 * 1024, 97))) {
              backedUp = true
              return void response.once('drain', write)
            }
          }
          response.end()
        }
        write()
      }),
    )
    let resume: (() => void) | undefined
    let received = 0
    const pending = call(agentWith(), server.origin, {
      onHeaders: (fn) => (resume = fn),
      onData: (chunk) => {
        received += chunk.length
        return false
      },
    })
    await sleep(200)
    // Paused after the first piece: the upstream's writes backed up, and no more arrived.
    const receivedWhilePaused = received
    expect(backedUp).toBe(true)
    expect(receivedWhilePaused).toBeLessThan(pieceCount * 64 * 1024)
    await sleep(100)
    expect(received).toBe(receivedWhilePaused)
    const resumeAll = setInterval(() => resume!(), 1)
    const answer = await pending
    clearInterval(resumeAll)
    expect(answer.body.length).toBe(pieceCount * 64 * 1024)
  })

  it.each([
    ['Content-Length', false],
    ['chunked', true],
  ])(
    'leaves a connection reading for its next call after a handler that paused at the %s end',
    async (_framing, chunked) => {
      const size = 200_000
      const server = await serve(
        httpServer((_request, response) => {
          if (!chunked) response.setHeader('content-length', size)
          response.end(Buffer.alloc(size, 98))
        }),
      )
      const agent = agentWith()
      let resume: (() => void) | undefined
      let received = 0
      // A handler always behind: each piece pauses the upstream until the next turn resumes it.
      const slowReader = () =>
        call(agent, server.origin, {
          onHeaders: (fn) => (resume = fn),
          onData: (chunk) => {
            received += chunk.length
            setImmediate(() => resume!())
            return false
          },
        })
      expect((await slowReader()).body.length).toBe(size)
      const next = await Promise.race([call(agent, server.origin), sleep(2_000).then(() => 'hung')])
      expect(next).not.toBe('hung')
      expect((next as { body: string }).body.length).toBe(size)
      expect(server.connections()).toBe(1)
      expect(received).toBe(size)
    },
  )

  it('fails only the call whose handler throws, and the gateway goes on', async () => {
    const server = await serve(httpServer((_request, response) => response.end('ok')))
    const agent = agentWith()
    await expect(
      call(agent, server.origin, {
        onData: () => {
          throw new Error('the handler broke')
        },
      }),
    ).rejects.toThrow('the handler broke')
    expect((await call(agent, server.origin)).body).toBe('ok')
  })

  it('does not count a pause of the handler against RELAY_TIMEOUT', async () => {
    const server = await serve(
      httpServer((_request, response) => {
        response.write('a'.repeat(1000))
        setTimeout(() => response.end('b'), 100)
      }),
    )
    let resume: (() => void) | undefined
    const answer = call(agentWith({ timeoutMs: 300 }), server.origin, {
      onHeaders: (fn) => (resume = fn),
      onData: (chunk) => {
        if (chunk.toString().startsWith('b')) return true
        // Held 700 ms, more than twice the limit, while the upstream's last piece waits.
        setTimeout(() => resume!(), 700)
        return false
      },
    })
    expect((await answer).body).toBe(`${'a'.repeat(1000)}b`)
  })

  it('fails the calls in flight when it is closed', async () => {
    const server = await serve(httpServer(() => {}))
    const agent = agentWith()
    const pending = call(agent, server.origin)
    await sleep(50)
    agent.close()
    await expect(pending).rejects.toMatchObject({ code: 'UND_ERR_DESTROYED' })
  })

  it('gives the connection of a call aborted before it was written to the next call', async () => {
    const server = await serve(httpServer((_request, response) => setTimeout(() => response.end('ok'), 50)))
    const agent = agentWith({ connections: 1 })
    const first = call(agent, server.origin)
    // Queued behind the first; its client is gone by the time a connection is free.
    const abandoned = call(agent, server.origin, { onConnect: (abort) => abort(new Error('client left')) })
    const third = call(agent, server.origin)
    expect((await first).body).toBe('ok')
    await expect(abandoned).rejects.toThrow('client left')
    expect((await third).body).toBe('ok')
    expect(server.connections()).toBe(1)
  })
})
