import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import type { StreamSink } from './upstream-exchange.ts'
import { WebSocketExchange } from './websocket-exchange.ts'

const limits = { maxBufferedBytes: 1024, maxStreamMs: 0, idleMs: 2_000 }
const isLast = (message: string) => message.includes('"last"')

/** A sink that records what it is given, as the client's stream would. */
function recordingSink() {
  const written: string[] = []
  const ended: Array<Error | undefined> = []
  const sink: StreamSink = {
    start: () => {},
    write: (chunk) => {
      written.push(chunk.toString())
      return true
    },
    end: (brokeOff) => ended.push(brokeOff),
  }
  return { sink, written, ended }
}

describe('WebSocketExchange', () => {
  let server: WebSocketServer
  let url: string

  beforeAll(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
    await new Promise((resolve) => server.once('listening', resolve))
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
    server.on('connection', (socket, request) => {
      socket.once('message', (data) => {
        socket.send(`{"echo":${JSON.stringify(String(data))}}`)
        // /cut: the upstream closes before its last message; /silent: it never answers more.
        if (request.url === '/cut') socket.close()
        else if (request.url !== '/silent') socket.send('{"last":true}')
      })
    })
  })
  afterAll(() => {
    server.close()
  })

  it('sends the first message and gathers every message received, one per line, to the last', async () => {
    const exchange = new WebSocketExchange({ url, body: 'hello', isLast }, undefined, limits)
    const answer = await exchange.done
    expect(answer).toMatchObject({ kind: 'buffered', status: 200 })
    expect(answer.kind === 'buffered' && answer.body.toString()).toBe('{"echo":"hello"}\n{"last":true}\n')
  })

  it('streams messages to the sink and ends it cleanly at the last one', async () => {
    const { sink, written, ended } = recordingSink()
    const answer = await new WebSocketExchange({ url, body: 'hi', isLast }, sink, limits).done
    expect(answer.kind).toBe('streamed')
    expect(written).toEqual(['{"echo":"hi"}\n', '{"last":true}\n'])
    expect(ended).toEqual([undefined])
  })

  it('fails a gathered call whose socket closed before the last message, and breaks off a stream', async () => {
    await expect(
      new WebSocketExchange({ url: `${url}/cut`, body: 'x', isLast }, undefined, limits).done,
    ).rejects.toThrow('closed the WebSocket before its answer ended')
    const { sink, ended } = recordingSink()
    const answer = await new WebSocketExchange({ url: `${url}/cut`, body: 'x', isLast }, sink, limits).done
    expect(answer).toMatchObject({ kind: 'streamed' })
    expect(ended[0]?.message).toContain('before its answer ended')
  })

  it('is cancelled at once (the client left) and by RELAY_TIMEOUT when the upstream falls silent', async () => {
    const cancelled = new WebSocketExchange({ url: `${url}/silent`, body: 'x', isLast }, undefined, limits)
    setTimeout(() => cancelled.cancel(new Error('the client closed the connection')), 50)
    await expect(cancelled.done).rejects.toThrow('the client closed the connection')
    const silent = new WebSocketExchange({ url: `${url}/silent`, body: 'x', isLast }, undefined, {
      ...limits,
      idleMs: 200,
    })
    await expect(silent.done).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' })
  })
})
