import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectedQuota, RelayFixture } from '../testing/relay-fixture.ts'
import { startTcpTap, type TcpTap } from '../testing/tcp-tap.ts'
import { testDialects } from '../testing/test-databases.ts'

// 100 pieces, 50 ms apart: five seconds of generation if nobody stops it.
const SLOW = 'slow-model+chunk-delay-ms=50+chunks=100'
const FULL_GENERATION_MS = 100 * 50
// Answers only after three seconds.
const LATE = 'late-model+delay-ms=3000'

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

describe.each(testDialects())('relay when the client disconnects on %s', (dialect) => {
  let fixture: RelayFixture
  let tap: TcpTap

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    tap = await startTcpTap(fixture.mock.port)
    await fixture.setPrices({ [SLOW]: 1, [LATE]: 1 }, { [SLOW]: 2, [LATE]: 2 })
    await fixture.addChannel({ models: [SLOW, LATE], base_url: `${tap.url}/v1` })
  })
  afterAll(async () => {
    await fixture?.close()
    await tap?.close()
  })

  it('cancels the upstream call and bills only what was generated before the client left', async () => {
    const user = await fixture.createUser('leaver', 1_000_000)
    const token = await fixture.createToken({ remain_quota: 100_000 }, user.client)
    const client = fixture.openai(token.key)
    const stream = await client.chat.completions.create({
      model: SLOW,
      messages: [{ role: 'user', content: 'tell me a long story' }],
      stream: true,
    })
    const received: string[] = []
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta?.content
      if (content) received.push(content)
      if (received.length === 5) break // leaving the loop aborts the HTTP request
    }
    const leftAt = Date.now()
    expect(received).toEqual(['Hello', ' from', ' the', ' mock', ' upstream'])

    // The gateway bills a stream when it stops reading the upstream; that happens right away only
    // if the upstream call was cancelled (it would otherwise run on for about five seconds).
    const logs = await fixture.waitForLogs({ userId: user.id }, 1)
    expect(logs).toHaveLength(1)
    const [log] = logs
    expect(Date.now() - leftAt).toBeLessThan(FULL_GENERATION_MS / 2)
    expect(log.content).toContain('client disconnected')
    expect(log.is_stream).toBe(true)
    expect(log.completion_tokens).toBeGreaterThanOrEqual(5)
    expect(log.completion_tokens).toBeLessThan(100)
    expect(log.quota).toBe(expectedQuota(log.prompt_tokens, log.completion_tokens, 1, 2))
    expect(log.quota).toBeLessThan(expectedQuota(log.prompt_tokens, 100, 1, 2))

    // The gateway closed its one upstream connection soon after the client left (a finished
    // request would have left it open for reuse).
    const [upstreamConnection] = tap.connections
    while (upstreamConnection.closedAt === undefined && Date.now() - leftAt < FULL_GENERATION_MS / 2)
      await sleep(20)
    expect(upstreamConnection.closedAt).toBeDefined()
    expect(upstreamConnection.closedAt! - leftAt).toBeLessThan(FULL_GENERATION_MS / 2)
    // The upstream saw one request, and nothing further is billed once it has stopped.
    expect(fixture.mock.requests.filter((request) => request.json?.model === SLOW)).toHaveLength(1)
    await sleep(300)
    expect(await fixture.balances(user.id, token.id)).toEqual({
      user: { quota: 1_000_000 - log.quota, used_quota: log.quota, request_count: 1 },
      token: { remain_quota: 100_000 - log.quota, used_quota: log.quota },
    })
    expect(await fixture.consumeLogs({ userId: user.id })).toHaveLength(1)
  })

  it('cancels the upstream call and charges nothing when the client leaves before any answer', async () => {
    const user = await fixture.createUser('impatient', 1_000_000)
    const token = await fixture.createToken({ remain_quota: 100_000 }, user.client)
    const connectionsBefore = tap.connections.length
    // A plain HTTP request that the client destroys: the official client (undici's fetch) opens a
    // spare connection after an abort, and such a silent connection keeps the server from closing
    // (see the report to the lead), which would hang this suite's teardown.
    const request = httpRequest(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
    })
    const failed = new Promise((resolve) => request.on('error', resolve))
    request.end(JSON.stringify({ model: LATE, messages: [{ role: 'user', content: 'hello?' }] }))
    await sleep(300)
    request.destroy()
    await failed
    const leftAt = Date.now()

    const idle = {
      user: { quota: 1_000_000, used_quota: 0, request_count: 0 },
      token: { remain_quota: 100_000, used_quota: 0 },
    }
    let balances = await fixture.balances(user.id, token.id)
    while (JSON.stringify(balances) !== JSON.stringify(idle) && Date.now() - leftAt < 2_000) {
      await sleep(20)
      balances = await fixture.balances(user.id, token.id)
    }
    // The reservation was given back, and nothing was counted or logged.
    expect(balances).toEqual(idle)
    const opened = tap.connections.slice(connectionsBefore)
    while (opened.some((connection) => connection.closedAt === undefined) && Date.now() - leftAt < 2_000)
      await sleep(20)
    expect(opened.length).toBeGreaterThan(0)
    expect(opened.every((connection) => connection.closedAt !== undefined)).toBe(true)
    expect(await fixture.consumeLogs({ userId: user.id })).toHaveLength(0)
  })

  it('makes no upstream call for a client that left while its quota was being reserved', async () => {
    const user = await fixture.createUser('quitter', 1_000_000)
    const token = await fixture.createToken({ remain_quota: 100_000 }, user.client)
    // The real reservation, made 200 ms late: a window a busy gateway opens by itself (the review
    // saw 63 of 150 clients that left within 40 ms of sending billed for the whole generation).
    const ledger = fixture.server.context.relay.ledger
    const reserve = ledger.reserve
    ledger.reserve = async (...args) => {
      await sleep(200)
      return reserve.apply(ledger, args)
    }
    const upstreamBefore = fixture.mock.requests.length
    try {
      const body = JSON.stringify({
        model: SLOW,
        messages: [{ role: 'user', content: 'hello' }],
        stream: true,
      })
      const socket = connect(Number(new URL(fixture.baseUrl).port), '127.0.0.1')
      socket.on('error', () => {})
      await new Promise((resolve) => socket.once('connect', resolve))
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      )
      await sleep(50)
      socket.destroy()
      // Long enough for a generation nobody stopped to run to its end and be logged.
      await sleep(FULL_GENERATION_MS + 1_000)
    } finally {
      ledger.reserve = reserve
    }
    // Nothing was asked of the upstream, nothing billed or logged (it generated all 100 pieces for
    // nobody, billed them, and logged a normal answer); /metrics counts it as a closed request.
    expect(fixture.mock.requests.length).toBe(upstreamBefore)
    expect(await fixture.consumeLogs({ userId: user.id })).toEqual([])
    expect(await fixture.balances(user.id, token.id)).toEqual({
      user: { quota: 1_000_000, used_quota: 0, request_count: 0 },
      token: { remain_quota: 100_000, used_quota: 0 },
    })
    const metrics = await (await fetch(`${fixture.baseUrl}/metrics`)).text()
    expect(metrics).toMatch(
      /oneapi_relay_requests_total\{channel="none",model="slow-model[^"]*",status="499"\} [1-9]/,
    )
  })
})
