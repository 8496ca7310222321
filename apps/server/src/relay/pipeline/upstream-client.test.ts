import type { IncomingMessage } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { eventually } from '../../testing/eventually.ts'
import { httpServer, rawServer, useUpstreamFixtures } from '../../testing/upstream-servers.ts'
import type { UpstreamCall } from './upstream-call.ts'
import type { UpstreamClient } from './upstream-client.ts'
import type { StreamSink } from './upstream-exchange.ts'

const { serve, clientWith } = useUpstreamFixtures()
const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => resolve(body))
  })

/** A whole answer through the client, its body as text. */
async function gather(client: UpstreamClient, url: string, call: Partial<UpstreamCall> = {}) {
  const answer = await client.start({ url, method: 'POST', headers: {}, ...call }).done
  if (answer.kind !== 'buffered') throw new Error('expected a gathered answer')
  return { status: answer.status, headers: answer.headers, body: answer.body.toString() }
}

/** A sink that takes 2xx event streams and records their bytes; `write` decides on back-pressure. */
function recordingSink(write: (chunk: Buffer, resume: () => void) => boolean = () => true) {
  const received: Buffer[] = []
  let ended: Error | undefined | 'clean'
  const sink: StreamSink = {
    start: () => {},
    write: (chunk, resume) => {
      received.push(chunk)
      return write(chunk, resume)
    },
    end: (brokeOff) => {
      ended = brokeOff ?? 'clean'
    },
  }
  return {
    sink,
    bytes: () => received.reduce((total, chunk) => total + chunk.length, 0),
    text: () => Buffer.concat(received).toString(),
    ended: () => ended,
  }
}

describe('UpstreamClient (undici)', () => {
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
        response.writeHead(400, { 'x-answer': 'yes', 'content-type': 'application/json' })
        response.end('{"ok":false}')
      }),
    )
    const body = '{"model":"m","text":"héllo"}'
    const answer = await gather(clientWith(), `${server.origin}/v1/chat/completions?x=1`, {
      headers: { authorization: 'Bearer sk-1', 'content-type': 'application/json' },
      body,
    })
    expect(answer).toMatchObject({ status: 400, body: '{"ok":false}' })
    expect(answer.headers['x-answer']).toBe('yes')
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/chat/completions?x=1', body })
    expect(seen.headers).toMatchObject({
      authorization: 'Bearer sk-1',
      host: server.origin.slice('http://'.length),
      'content-length': String(Buffer.byteLength(body)),
    })
  })

  it('carries calls one after the other on one kept-alive connection, and a new one after Connection: close', async () => {
    const server = await serve(
      httpServer((request, response) => {
        if (request.url === '/close') response.setHeader('connection', 'close')
        response.end('ok')
      }),
    )
    const client = clientWith()
    // A turn between calls, as between two clients' requests: undici frees a connection after
    // its handler heard the end, so a call made in that same turn takes another one.
    for (let index = 0; index < 5; index++) {
      expect((await gather(client, server.origin)).body).toBe('ok')
      await sleep(0)
    }
    expect(server.connections()).toBe(1)
    await gather(client, `${server.origin}/close`)
    await sleep(0)
    await gather(client, server.origin)
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
    const client = clientWith()
    await gather(client, server.origin)
    await sleep(200)
    expect((await gather(client, server.origin)).body).toBe('ok')
    expect(server.connections()).toBe(2)
  })

  it('times out an upstream slow to answer, and one that stalls mid-body (RELAY_TIMEOUT), not one that trickles', async () => {
    const server = await serve(
      httpServer((request, response) => {
        if (request.url === '/slow-head') return void setTimeout(() => response.end('late'), 4_000)
        if (request.url === '/stall') return void response.write('started')
        // A slow stream that keeps coming is not cut: the limit is per pause, not for the whole.
        let sent = 0
        const timer = setInterval(() => {
          response.write(`piece ${sent}\n`)
          if (++sent === 5) {
            clearInterval(timer)
            response.end()
          }
        }, 400)
      }),
    )
    const client = clientWith({ timeoutSeconds: 1 })
    await expect(gather(client, `${server.origin}/slow-head`)).rejects.toMatchObject({
      code: 'UND_ERR_HEADERS_TIMEOUT',
    })
    await expect(gather(client, `${server.origin}/stall`)).rejects.toMatchObject({
      code: 'UND_ERR_BODY_TIMEOUT',
    })
    expect((await gather(client, `${server.origin}/trickle`)).body).toContain('piece 4')
  })

  it('reports an origin that refuses connections with the socket error code', async () => {
    const server = await serve(httpServer((_request, response) => response.end()))
    const origin = server.origin
    await server.close()
    await expect(gather(clientWith(), origin)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
  })

  it('refuses a header value with a line break before anything is sent', async () => {
    const server = await serve(httpServer((_request, response) => response.end('ok')))
    await expect(
      gather(clientWith(), server.origin, { headers: { 'x-a': 'b\r\nx-injected: 1' } }),
    ).rejects.toMatchObject({ code: 'UND_ERR_INVALID_ARG' })
    expect(server.connections()).toBe(0)
  })

  it('never hands a call the second answer an upstream sent to one request', async () => {
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
    const client = clientWith()
    expect((await gather(client, server.origin)).body).toBe('answer 1')
    expect((await gather(client, server.origin)).body).toBe('answer 2')
  })

  it('fails a call whose answer is cut, with the socket code the relay retries on', async () => {
    const server = await serve(
      rawServer((socket) => {
        socket.on('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort'))
      }),
    )
    await expect(gather(clientWith(), server.origin)).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' })
  })

  it('pauses the upstream while the sink is behind (back-pressure), and goes on when it resumes', async () => {
    const pieceCount = 64
    let backedUp = false
    const server = await serve(
      httpServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' })
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
    let resumeUpstream: (() => void) | undefined
    const sink = recordingSink((_chunk, resume) => {
      resumeUpstream = resume
      return false
    })
    const call = clientWith().start({ url: server.origin, method: 'POST', headers: {} }, sink.sink)
    // Paused after the first piece: the upstream's writes back up (polled: a loaded machine is slow
    // to fill the socket buffers), and no more arrives while the sink holds.
    await eventually(() => backedUp && sink.bytes() > 0)
    await sleep(100)
    const receivedWhilePaused = sink.bytes()
    expect(receivedWhilePaused).toBeLessThan(pieceCount * 64 * 1024)
    await sleep(200)
    expect(sink.bytes()).toBe(receivedWhilePaused)
    const resumeAll = setInterval(() => resumeUpstream!(), 1)
    const answer = await call.done
    clearInterval(resumeAll)
    expect(answer.kind).toBe('streamed')
    expect(sink.bytes()).toBe(pieceCount * 64 * 1024)
    expect(sink.ended()).toBe('clean')
  })

  it('does not count a pause of the sink against RELAY_TIMEOUT', async () => {
    const server = await serve(
      httpServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        response.write('a'.repeat(1000))
        setTimeout(() => response.end('b'), 200)
      }),
    )
    const sink = recordingSink((chunk, resume) => {
      if (chunk.toString().startsWith('b')) return true
      // Held 3 s, three times the limit, while the upstream's last piece waits.
      setTimeout(resume, 3_000)
      return false
    })
    const call = clientWith({ timeoutSeconds: 1 }).start(
      { url: server.origin, method: 'POST', headers: {} },
      sink.sink,
    )
    await call.done
    expect(sink.text()).toBe(`${'a'.repeat(1000)}b`)
    expect(sink.ended()).toBe('clean')
  })

  it('cancels a call (its client left): the sink hears the reason and the upstream sees its connection close', async () => {
    let upstreamClosed = false
    const server = await serve(
      httpServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        response.write('data: 1\n\n')
        response.on('close', () => (upstreamClosed = true))
      }),
    )
    const sink = recordingSink()
    const call = clientWith().start({ url: server.origin, method: 'POST', headers: {} }, sink.sink)
    await sleep(100)
    call.cancel(new Error('the client closed the connection'))
    const answer = await call.done
    expect(answer).toMatchObject({
      kind: 'streamed',
      brokeOff: { message: 'the client closed the connection' },
    })
    await sleep(100)
    expect(upstreamClosed).toBe(true)
  })

  it('fails a whole answer past RELAY_MAX_RESPONSE_BYTES, and streams a longer one', async () => {
    const size = 200_000
    const server = await serve(
      httpServer((request, response) => {
        const type = request.url === '/stream' ? 'text/event-stream' : 'application/json'
        response.writeHead(200, { 'content-type': type })
        response.end(Buffer.alloc(size, 97))
      }),
    )
    const client = clientWith({ maxResponseBytes: 100_000 })
    await expect(gather(client, server.origin)).rejects.toMatchObject({
      code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE',
    })
    // A stream request answered whole (JSON) has the same cap.
    const streamCall = client.start({ url: server.origin, method: 'POST', headers: {} }, recordingSink().sink)
    await expect(streamCall.done).rejects.toMatchObject({ code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' })
    const sink = recordingSink()
    await client.start({ url: `${server.origin}/stream`, method: 'POST', headers: {} }, sink.sink).done
    expect(sink.bytes()).toBe(size)
  })

  it('cuts a stream at RELAY_MAX_STREAM_SECONDS', async () => {
    const server = await serve(
      httpServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        const timer = setInterval(() => response.write('data: {}\n\n'), 100)
        response.on('close', () => clearInterval(timer))
      }),
    )
    const sink = recordingSink()
    const started = Date.now()
    const answer = await clientWith({ maxStreamSeconds: 1 }).start(
      { url: server.origin, method: 'POST', headers: {} },
      sink.sink,
    ).done
    expect(answer).toMatchObject({ kind: 'streamed', brokeOff: { code: 'RELAY_STREAM_TOO_LONG' } })
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(sink.bytes()).toBeGreaterThan(0)
  })

  it('fails the calls in flight when it is closed', async () => {
    const server = await serve(httpServer(() => {}))
    const client = clientWith()
    const pending = gather(client, server.origin)
    await sleep(100)
    await client.close()
    await expect(pending).rejects.toMatchObject({ code: 'UND_ERR_DESTROYED' })
  })
})
