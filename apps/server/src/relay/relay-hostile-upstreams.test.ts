import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  chatAnswer,
  chatBody,
  chatEvent,
  type HostileRequest,
  type HostileUpstream,
  hostileUpstream,
} from '../testing/hostile-upstream.ts'
import { REQUEST_ID, RelayFixture } from '../testing/relay-fixture.ts'

/**
 * Upstreams that break HTTP/1.1 in the ways a gateway's client must survive, each a small TCP
 * server, through the whole gateway. Every case checks what a caller and an operator would see:
 * each caller gets its own answer or a clear error in OpenAI's shape, a call that produced nothing
 * is billed nothing (a failed primary leaves only the backup's log), and the gateway serves on.
 * Transport behaviour does not depend on the database: SQLite only.
 */
const RELAY_TIMEOUT_SECONDS = 2
const MAX_RESPONSE_BYTES = 256 * 1024
const MAX_STREAM_SECONDS = 3
/** Served by the fake provider alone: a request for it shows the gateway still serves. */
const CONTROL_MODEL = 'hostile-control'

let fixture: RelayFixture
let tokenKey: string
let tokenId: number
let caseCount = 0
const upstreams: HostileUpstream[] = []

beforeAll(async () => {
  fixture = await RelayFixture.start('sqlite', {
    RELAY_TIMEOUT: String(RELAY_TIMEOUT_SECONDS),
    RELAY_MAX_RESPONSE_BYTES: String(MAX_RESPONSE_BYTES),
    RELAY_MAX_STREAM_SECONDS: String(MAX_STREAM_SECONDS),
  })
  await fixture.setOption('RetryTimes', 2)
  const models = [CONTROL_MODEL, ...Array.from({ length: 40 }, (_, index) => `hostile-${index + 1}`)]
  await fixture.priceModels(models, 1)
  await fixture.addChannel({ models: [CONTROL_MODEL] })
  const token = await fixture.createToken({ remain_quota: 100_000_000 })
  tokenKey = token.key
  tokenId = token.id
})
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()))
})
afterAll(async () => {
  await fixture?.close()
})

interface Case {
  model: string
  upstream: HostileUpstream
  primary: number
  backup?: number
}

/**
 * A model of its own (a failed channel cools down) served first by a hostile upstream, priced, and
 * with the fake provider as a backup channel unless `backup` is false.
 */
async function hostileCase(answer: (request: HostileRequest) => void, backup = true): Promise<Case> {
  caseCount += 1
  const model = `hostile-${caseCount}`
  const upstream = await hostileUpstream(answer)
  upstreams.push(upstream)
  const primary = await fixture.addChannel({
    models: [model],
    base_url: `${upstream.origin}/v1`,
    key: `sk-${model}-primary`,
    priority: 10,
  })
  const backupId = backup
    ? await fixture.addChannel({ models: [model], key: `sk-${model}-backup`, priority: 0 })
    : undefined
  return { model, upstream, primary, backup: backupId }
}

interface Answer {
  status: number
  /** The parsed JSON answer, or the raw text of a stream. */
  json: { choices?: Array<{ message?: { content?: string } }>; error?: Record<string, unknown> }
  text: string
  requestId: string | null
}

async function ask(model: string, marker: string, stream = false): Promise<Answer> {
  const response = await fetch(`${fixture.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokenKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: marker }] }),
  })
  // Read piece by piece: a stream cut short ends in an error, after what arrived.
  const decoder = new TextDecoder()
  let text = ''
  try {
    const reader = response.body!.getReader()
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      text += decoder.decode(read.value, { stream: true })
    }
  } catch {}
  let json = {}
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: response.status, json, text, requestId: response.headers.get(REQUEST_ID) }
}

/** The answer's text, which names the request it answers (`echo:<marker>`) when the hostile upstream gave it. */
const contentOf = (answer: Answer) => answer.json.choices?.[0]?.message?.content

/**
 * The consume logs of the case's model name exactly the channels that answered (in order), and
 * the token's use grew by exactly what they charged: nothing for a call that produced nothing.
 */
async function expectBilled(model: string, channels: number[], usedBefore: number): Promise<void> {
  const logs = await fixture.waitForLogs({ model }, channels.length)
  // Late logs would show here: a short wait for any that should not exist.
  await sleep(200)
  const settled = await fixture.consumeLogs({ model })
  expect(settled.map((log) => log.channel_id)).toEqual(channels)
  expect(logs.length).toBe(channels.length)
  const { used_quota } = await fixture.tokenQuota(tokenId)
  const charged = settled.reduce((sum, log) => sum + log.quota, 0)
  expect(Number(used_quota) - usedBefore).toBe(charged)
  if (channels.length > 0) expect(charged).toBeGreaterThan(0)
}

async function usedQuota(): Promise<number> {
  return Number((await fixture.tokenQuota(tokenId)).used_quota)
}

/** The gateway still answers a plain request through the fake provider (and has settled it). */
async function expectStillServing(): Promise<void> {
  const answer = await ask(CONTROL_MODEL, 'still there?')
  expect(answer.status).toBe(200)
  await fixture.logFor(answer.requestId)
}

/** One request that the hostile primary fails: the backup answers it, and only the backup is billed. */
async function expectFailover(
  answer: (request: HostileRequest) => void,
  marker = 'failover',
): Promise<{ primary: Answer; case: Case }> {
  const before = await usedQuota()
  const hostile = await hostileCase(answer)
  const result = await ask(hostile.model, marker)
  expect(result.status, result.text).toBe(200)
  // The fake provider's own text, not any hostile bytes.
  expect(contentOf(result)).toBeTruthy()
  expect(contentOf(result)).not.toContain('echo:')
  expect(hostile.upstream.requests()).toBe(1)
  await expectBilled(hostile.model, [hostile.backup!], before)
  await expectStillServing()
  return { primary: result, case: hostile }
}

describe('hostile upstreams through the gateway', () => {
  it('unsolicited bytes on an idle keep-alive connection never reach the next caller', async () => {
    const before = await usedQuota()
    const hostile = await hostileCase(({ socket, marker, count }) => {
      socket.write(chatAnswer(marker))
      // Once idle, the first connection says more: a whole answer nobody asked for.
      if (count === 1) setTimeout(() => socket.write(chatAnswer('INJECTED')), 50)
    })
    expect(contentOf(await ask(hostile.model, 'first'))).toBe('echo:first')
    await sleep(300)
    const second = await ask(hostile.model, 'second')
    expect(second.status).toBe(200)
    expect(contentOf(second)).toBe('echo:second')
    // The connection that spoke out of turn was closed: the second call had a new one.
    expect(hostile.upstream.connections()).toBe(2)
    await expectBilled(hostile.model, [hostile.primary, hostile.primary], before)
    await expectStillServing()
  })

  it('a stray CRLF after each answer does not fail the next call on the connection', async () => {
    const before = await usedQuota()
    const hostile = await hostileCase(({ socket, marker }) => socket.write(`${chatAnswer(marker)}\r\n`))
    const answers = []
    for (const marker of ['one', 'two', 'three']) {
      answers.push(await ask(hostile.model, marker))
      await sleep(50)
    }
    expect(answers.map((answer) => [answer.status, contentOf(answer)])).toEqual([
      [200, 'echo:one'],
      [200, 'echo:two'],
      [200, 'echo:three'],
    ])
    await expectBilled(hostile.model, [hostile.primary, hostile.primary, hostile.primary], before)
    await expectStillServing()
  })

  it.each([
    [
      'a bare LF in the status line',
      (body: string) => `HTTP/1.1 200 OK\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ],
    [
      'a bare LF hiding Transfer-Encoding in a header',
      (body: string) =>
        `HTTP/1.1 200 OK\r\nX-Note: a\nTransfer-Encoding: chunked\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ],
    [
      'a bare CR hiding Connection in a header',
      (body: string) =>
        `HTTP/1.1 200 OK\r\nX-Note: a\rConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ],
  ])('%s fails the call over to the next channel', async (_name, head) => {
    await expectFailover(({ socket, marker }) => socket.write(head(chatBody(marker))))
  })

  it.each([
    ['conflicting', (length: number) => `Content-Length: ${length}\r\nContent-Length: ${length + 10}\r\n`],
    ['duplicate', (length: number) => `Content-Length: ${length}\r\nContent-Length: ${length}\r\n`],
    ['listed', (length: number) => `Content-Length: ${length}, ${length}\r\n`],
  ])('a %s Content-Length fails the call over to the next channel', async (_name, lengths) => {
    await expectFailover(({ socket, marker }) => {
      const body = chatBody(marker)
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${lengths(body.length)}\r\n${body}`)
    })
  })

  it('Content-Length with Transfer-Encoding fails the call over to the next channel', async () => {
    await expectFailover(({ socket, marker }) => {
      const body = chatBody(marker)
      const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
          `Transfer-Encoding: chunked\r\n\r\n${chunked}`,
      )
    })
  })

  it('a 103 Early Hints before the answer is skipped; the answer is served and billed', async () => {
    const before = await usedQuota()
    const hostile = await hostileCase(({ socket, marker }) =>
      socket.write(
        `HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n${chatAnswer(marker)}`,
      ),
    )
    const answer = await ask(hostile.model, 'hinted')
    expect([answer.status, contentOf(answer)]).toEqual([200, 'echo:hinted'])
    await expectBilled(hostile.model, [hostile.primary], before)
    await expectStillServing()
  })

  it('a 100 Continue nobody asked for (undici refuses it) fails the call over to the next channel', async () => {
    await expectFailover(({ socket, marker }) =>
      socket.write(`HTTP/1.1 100 Continue\r\n\r\n${chatAnswer(marker)}`),
    )
  })

  it.each([
    [
      '101 Switching Protocols',
      'HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n',
    ],
    ['1xx outside the interim ones (150)', 'HTTP/1.1 150 Odd\r\n\r\n'],
  ])('a %s is an upstream error: the call fails over and the primary bills nothing', async (_name, head) => {
    await expectFailover(({ socket, marker }) => socket.write(`${head}${chatAnswer(marker)}`))
  })

  it('an oversized head fails the call over to the next channel', async () => {
    const padding = Array.from({ length: 64 }, (_, index) => `X-Pad-${index}: ${'a'.repeat(1024)}\r\n`).join(
      '',
    )
    await expectFailover(({ socket, marker }) => socket.write(chatAnswer(marker, padding)))
  })

  it('a reset in the middle of the body fails the call over to the next channel', async () => {
    await expectFailover(({ socket }) => {
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"id":"x",',
      )
      setTimeout(() => socket.resetAndDestroy(), 50)
    })
  })

  it('an upstream that accepts and never answers is given up after RELAY_TIMEOUT, and the call fails over', async () => {
    const started = Date.now()
    await expectFailover(() => {})
    expect(Date.now() - started).toBeGreaterThanOrEqual(RELAY_TIMEOUT_SECONDS * 1000 - 100)
  })

  it('a body delimited by the close of the connection is read whole, and the next call gets a new connection', async () => {
    const before = await usedQuota()
    const hostile = await hostileCase(({ socket, marker }) =>
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n${chatBody(marker)}`),
    )
    expect(contentOf(await ask(hostile.model, 'closed-1'))).toBe('echo:closed-1')
    expect(contentOf(await ask(hostile.model, 'closed-2'))).toBe('echo:closed-2')
    expect(hostile.upstream.connections()).toBe(2)
    await expectBilled(hostile.model, [hostile.primary, hostile.primary], before)
    await expectStillServing()
  })

  it('a chunked body with trailers is read whole, and its connection carries the next call', async () => {
    const before = await usedQuota()
    const hostile = await hostileCase(({ socket, marker }) => {
      const body = chatBody(marker)
      const half = Math.floor(body.length / 2)
      const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)};ext=1\r\n${text}\r\n`
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n' +
          `${chunk(body.slice(0, half))}${chunk(body.slice(half))}0\r\nX-Checksum: abc\r\n\r\n`,
      )
    })
    expect(contentOf(await ask(hostile.model, 'chunked-1'))).toBe('echo:chunked-1')
    await sleep(50)
    expect(contentOf(await ask(hostile.model, 'chunked-2'))).toBe('echo:chunked-2')
    expect(hostile.upstream.connections()).toBe(1)
    await expectBilled(hostile.model, [hostile.primary, hostile.primary], before)
    await expectStillServing()
  })
})

describe('caps on what an upstream may send', () => {
  it('an answer past RELAY_MAX_RESPONSE_BYTES ends in a clear 502 in OpenAI shape, billed nothing', async () => {
    const before = await usedQuota()
    const hostile = await hostileCase(({ socket }) => {
      const body = `{"padding":"${'a'.repeat(MAX_RESPONSE_BYTES)}"}`
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      )
    }, false)
    const answer = await ask(hostile.model, 'too big')
    expect(answer.status).toBe(502)
    expect(answer.json.error).toMatchObject({
      type: 'upstream_error',
      code: 'upstream_response_too_large',
      message: expect.stringContaining('larger than this gateway accepts'),
    })
    await expectBilled(hostile.model, [], before)
    await expectStillServing()
  })

  it('a stream that never ends is cut at RELAY_MAX_STREAM_SECONDS, and billed for what it carried', async () => {
    const before = await usedQuota()
    const hostile = await hostileCase(({ socket }) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n')
      const timer = setInterval(() => {
        const event = chatEvent('more ')
        socket.write(`${Buffer.byteLength(event).toString(16)}\r\n${event}\r\n`)
      }, 200)
      socket.on('close', () => clearInterval(timer))
    }, false)
    const started = Date.now()
    const answer = await ask(hostile.model, 'endless', true)
    const took = Date.now() - started
    expect(answer.status).toBe(200)
    expect(answer.text).toContain('more ')
    expect(answer.text).not.toContain('[DONE]')
    expect(took).toBeGreaterThanOrEqual(MAX_STREAM_SECONDS * 1000 - 100)
    expect(took).toBeLessThan(MAX_STREAM_SECONDS * 1000 + 10_000)
    await expectBilled(hostile.model, [hostile.primary], before)
    const [log] = await fixture.consumeLogs({ model: hostile.model })
    expect(log?.content).toContain('RELAY_MAX_STREAM_SECONDS')
    await expectStillServing()
  })
})
