import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { freePort } from '../testing/free-port.ts'
import { RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

// Each test has models and channels of its own: a failed channel cools down for a while, which
// would otherwise change what the next test sees.
const MODELS = [
  'fo-500',
  'fo-429',
  'fo-timeout',
  'fo-refused',
  'fo-cooling',
  'fo-none',
  'fo-400',
  'fo-refund',
  'fo-tiers',
  'fo-weights',
  'fo-empty-stream',
  'fo-no-stream',
  'fo-unsupported',
  'fo-stream-error',
  'fo-stream-errors',
  'fo-forbidden',
  'fo-allowed',
  'fo-ledger-down',
  'fo-refund-slow',
  'fo-switch',
  'fo-metrics',
  'fo-no-answer',
  'fo-reserve-down',
]

describe.each(testDialects())('relay failover on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  const chat = (model: string, target = client) =>
    target.chat.completions.create({ model, messages: [{ role: 'user', content: 'one two three' }] })
  const count = (key: string) => fixture.requestsFor(key).length
  /**
   * A stream for `model` whose two channels both fail with `fault`: the client gets a 502, each
   * channel was tried once, and nothing was charged or logged. Returns the client's error.
   */
  async function streamFailingOnBoth(
    model: string,
    fault: { streamError?: boolean; cutAfterChunks?: number },
  ) {
    const token = await fixture.createToken({ remain_quota: 1_000_000 })
    const { primaryKey, backupKey } = await pair(model)
    fixture.mock.addFault({ match: { model }, ...fault })
    const answer = await relayFailure(
      fixture.openai(token.key).chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'one two three' }],
        stream: true,
      }),
    )
    expect(answer.status).toBe(502)
    expect([count(primaryKey), count(backupKey)]).toEqual([1, 1])
    expect(await fixture.consumeLogs({ model })).toHaveLength(0)
    expect(await fixture.tokenQuota(token.id)).toEqual({ remain_quota: 1_000_000, used_quota: 0 })
    return answer
  }

  /** The text of a streamed chat answer, read as a client reads it. */
  async function streamedText(model: string): Promise<string> {
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'one two three' }],
      stream: true,
    })
    const { text } = await readChatStream(stream)
    return text
  }

  const pair = (model: string) => fixture.addPrimaryAndBackup(model)

  beforeAll(async () => {
    // A 2 s upstream timeout keeps the timeout case short, with a margin for a busy machine.
    fixture = await RelayFixture.start(dialect, { RELAY_TIMEOUT: '2' })
    await fixture.priceModels(MODELS, 1)
    await fixture.setOption('RetryTimes', 2)
    client = fixture.openai((await fixture.createToken()).key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it.each([
    ['fo-500', { status: 500 }],
    ['fo-429', { status: 429 }],
    // undici times RELAY_TIMEOUT with a clock that ticks every half second: the 2 s limit fires
    // within 2 to 3 s, so the upstream answers well after that.
    ['fo-timeout', { delayMs: 3_500 }],
  ])('moves on to the next channel when %s fails, trying the failed one only once', async (model, fault) => {
    const { backup, primaryKey, backupKey } = await pair(model)
    fixture.mock.addFault({ match: { keyContains: primaryKey }, ...fault })
    const completion = await chat(model)
    expect(completion.choices[0].message.content).toBe('Hello from the mock upstream')
    expect(count(primaryKey)).toBe(1)
    expect(count(backupKey)).toBe(1)
    const [log] = await fixture.waitForLogs({ model }, 1)
    expect(log.channel_id).toBe(backup)
  })

  it('still fails over and serves when the database refuses a refund or a settlement', async () => {
    // The database unreachable for a moment (a dropped connection, a failover): the failed
    // channel's refund and the served request's settlement both fail once, for real errors the
    // ledger would meet. The client lost its answer (500) when the refund failed; a failed
    // settlement wrote no log at all.
    const model = 'fo-ledger-down'
    const { backup, primaryKey } = await pair(model)
    fixture.mock.addFault({ match: { keyContains: primaryKey }, status: 500 })
    const ledger = fixture.server.context.relay.ledger
    const { refund, settle } = ledger
    ledger.refund = async () => {
      throw new Error('Connection terminated unexpectedly')
    }
    ledger.settle = async () => {
      throw new Error('Connection terminated unexpectedly')
    }
    try {
      const completion = await chat(model)
      expect(completion.choices[0].message.content).toBe('Hello from the mock upstream')
    } finally {
      ledger.refund = refund
      ledger.settle = settle
    }
    const [log] = await fixture.waitForLogs({ model }, 1)
    expect(log.channel_id).toBe(backup)
    expect(log.content).toContain('the charge could not be recorded (Connection terminated unexpectedly)')
  })

  it('moves on to the next channel within seconds while a refund is still being tried', async () => {
    // The database unreachable for longer: a refund is tried again for up to a minute. The client's
    // next channel waited for it all that time.
    const model = 'fo-refund-slow'
    const { backup, primaryKey } = await pair(model)
    fixture.mock.addFault({ match: { keyContains: primaryKey }, status: 500 })
    const ledger = fixture.server.context.relay.ledger
    const { refund } = ledger
    let finishRefund = () => {}
    ledger.refund = (reservation) =>
      new Promise<void>((resolve) => {
        finishRefund = () => void refund.call(ledger, reservation).then(resolve)
      })
    try {
      const started = Date.now()
      const completion = await chat(model)
      expect(completion.choices[0].message.content).toBe('Hello from the mock upstream')
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      ledger.refund = refund
      finishRefund()
    }
    const [log] = await fixture.waitForLogs({ model }, 1)
    expect(log.channel_id).toBe(backup)
  })

  it('routes by a channel disabled or enabled through the API as soon as the API has answered', async () => {
    // The routing index reloads shortly after a change: the node that made it still picked a
    // channel disabled through the API for about 20 ms after the API had answered.
    const { primary, primaryKey, backupKey } = await pair('fo-switch')
    for (let round = 0; round < 5; round++) {
      const disabled = await fixture.root.put('/api/channel/?status_only=true', { id: primary, status: 2 })
      expect(disabled.status).toBe(200)
      await chat('fo-switch')
      expect([count(primaryKey), count(backupKey)]).toEqual([round, round + 1])
      const enabled = await fixture.root.put('/api/channel/?status_only=true', { id: primary, status: 1 })
      expect(enabled.status).toBe(200)
      await chat('fo-switch')
      expect([count(primaryKey), count(backupKey)]).toEqual([round + 1, round + 1])
    }
  })

  it('counts a request that failed under the channel that failed it last, in /metrics', async () => {
    const { primary, backup, primaryKey, backupKey } = await pair('fo-metrics')
    fixture.mock.addFault({ match: { keyContains: primaryKey }, status: 500 })
    fixture.mock.addFault({ match: { keyContains: backupKey }, status: 503 })
    expect(await relayFailure(chat('fo-metrics'))).toMatchObject({ status: 503 })
    const metrics = await (await fetch(`${fixture.baseUrl}/metrics`)).text()
    const requests = (channel: string) =>
      new RegExp(
        `oneapi_relay_requests_total\\{channel="${channel}",model="fo-metrics",status="(\\d+)"\\} 1\\n`,
      ).exec(metrics)?.[1]
    expect(requests(String(backup))).toBe('503')
    expect(requests(String(primary))).toBeUndefined()
    expect(requests('none')).toBeUndefined()
    expect(metrics).toMatch(
      new RegExp(`oneapi_relay_retries_total\\{channel="${primary}",model="fo-metrics"\\} 1\\n`),
    )
  })

  it('moves on when a channel answers a success without an answer, charging only the one served', async () => {
    // A 200 with `{}`: passed on as the answer (the SDK read no choices) and billed for its prompt.
    const { backup, primaryKey, backupKey } = await pair('fo-no-answer')
    fixture.mock.addFault({ match: { keyContains: primaryKey }, status: 200, body: {} })
    const completion = await chat('fo-no-answer')
    expect(completion.choices[0].message.content).toBe('Hello from the mock upstream')
    expect([count(primaryKey), count(backupKey)]).toEqual([1, 1])
    const logs = await fixture.waitForLogs({ model: 'fo-no-answer' }, 1)
    expect(logs.map((log) => log.channel_id)).toEqual([backup])
  })

  it('answers 503, sending nothing upstream, when the database does not take the reservation', async () => {
    const { primaryKey, backupKey } = await pair('fo-reserve-down')
    const ledger = fixture.server.context.relay.ledger
    const { reserve } = ledger
    ledger.reserve = async () => {
      throw new Error('Connection terminated unexpectedly')
    }
    let answer: Awaited<ReturnType<typeof relayFailure>>
    try {
      answer = await relayFailure(chat('fo-reserve-down'))
    } finally {
      ledger.reserve = reserve
    }
    expect(answer).toMatchObject({ status: 503 })
    expect(answer.error.code).toBe('billing_unavailable')
    expect([count(primaryKey), count(backupKey)]).toEqual([0, 0])
  })

  it('moves on to the next channel when the connection to the first is refused', async () => {
    // Nothing listens on this port: the connection is refused before any answer.
    const primary = await fixture.addChannel({
      models: ['fo-refused'],
      key: 'sk-fo-refused-primary',
      priority: 10,
      base_url: `http://127.0.0.1:${await freePort()}/v1`,
    })
    const backup = await fixture.addChannel({ models: ['fo-refused'], key: 'sk-fo-refused-backup' })
    const completion = await chat('fo-refused')
    expect(completion.choices[0].message.content).toBe('Hello from the mock upstream')
    expect(count('sk-fo-refused-backup')).toBe(1)
    const [log] = await fixture.waitForLogs({ model: 'fo-refused' }, 1)
    expect(log.channel_id).toBe(backup)
    expect(log.channel_id).not.toBe(primary)
  })

  it('cools a channel down once it keeps failing, not after one stray error', async () => {
    const { primaryKey, backupKey } = await pair('fo-cooling')
    fixture.mock.addFault({ match: { keyContains: primaryKey }, status: 503, times: 1 })
    await chat('fo-cooling')
    await chat('fo-cooling')
    // One failure, then the primary (first in priority) served again at once.
    expect([count(primaryKey), count(backupKey)]).toEqual([2, 1])
    fixture.mock.addFault({ match: { keyContains: primaryKey }, status: 503, times: 3 })
    for (let request = 0; request < 3; request++) await chat('fo-cooling')
    expect([count(primaryKey), count(backupKey)]).toEqual([5, 4])
    // Three failures in a row: the primary is cooling down (5 s), though it would answer now.
    await Promise.all(Array.from({ length: 5 }, () => chat('fo-cooling')))
    expect([count(primaryKey), count(backupKey)]).toEqual([5, 9])
  })

  it('moves a stream to the next channel when the first breaks off before sending any event', async () => {
    const { backup, primaryKey, backupKey } = await pair('fo-empty-stream')
    // Headers and then a cut connection: nothing the client could be sent.
    fixture.mock.addFault({ match: { keyContains: primaryKey }, cutAfterChunks: 0 })
    expect(await streamedText('fo-empty-stream')).toBe('Hello from the mock upstream')
    expect([count(primaryKey), count(backupKey)]).toEqual([1, 1])
    const logs = await fixture.waitForLogs({ model: 'fo-empty-stream' }, 1)
    expect(logs.map((log) => log.channel_id)).toEqual([backup])
  })

  it('moves a stream whose first event is an error to the next channel, and answers that error if all fail', async () => {
    const { backup, primaryKey, backupKey } = await pair('fo-stream-error')
    fixture.mock.addFault({ match: { keyContains: primaryKey }, streamError: true })
    expect(await streamedText('fo-stream-error')).toBe('Hello from the mock upstream')
    expect([count(primaryKey), count(backupKey)]).toEqual([1, 1])
    const logs = await fixture.waitForLogs({ model: 'fo-stream-error' }, 1)
    expect(logs.map((log) => log.channel_id)).toEqual([backup])

    // Every channel fails so: the client gets the upstream's error as an error, not a 200 stream.
    const answer = await streamFailingOnBoth('fo-stream-errors', { streamError: true })
    expect(answer.error.message).toMatch(/^The server had an error while processing your request/)
  })

  it('does not cool a channel down for 403s about one model its key may not use', async () => {
    const shared = await fixture.addChannel({
      models: ['fo-forbidden', 'fo-allowed'],
      key: 'sk-fo-shared',
      priority: 10,
    })
    await fixture.addChannel({ models: ['fo-allowed'], key: 'sk-fo-allowed-backup', priority: 0 })
    const denied = {
      error: {
        message: 'Project does not have access to model fo-forbidden',
        type: 'invalid_request_error',
        code: 'model_not_found',
      },
    }
    fixture.mock.addFault({ match: { model: 'fo-forbidden' }, status: 403, body: denied })
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await relayFailure(chat('fo-forbidden'))).status).toBe(403)
    }
    // Three failures in a row would cool a failing channel down; these say nothing of fo-allowed.
    await chat('fo-allowed')
    const [log] = await fixture.waitForLogs({ model: 'fo-allowed' }, 1)
    expect(log.channel_id).toBe(shared)
  })

  it('answers an error and charges nothing when every stream breaks off before any event', async () => {
    await streamFailingOnBoth('fo-no-stream', { cutAfterChunks: 0 })
  })

  it('returns the last error when every channel fails, each tried once', async () => {
    const { primaryKey, backupKey } = await pair('fo-none')
    fixture.mock.addFault({ match: { model: 'fo-none' }, status: 502 })
    const answer = await relayFailure(chat('fo-none'))
    expect(answer.status).toBe(502)
    expect(answer.error.message).toContain(`(request id: ${answer.requestId})`)
    expect(count(primaryKey)).toBe(1)
    expect(count(backupKey)).toBe(1)
    expect(await fixture.consumeLogs({ model: 'fo-none' })).toHaveLength(0)
  })

  it('does not retry when RetryTimes is 0', async () => {
    const model = 'fo-none'
    await fixture.setOption('RetryTimes', 0)
    try {
      const before = { primary: count('sk-fo-none-primary'), backup: count('sk-fo-none-backup') }
      const answer = await relayFailure(chat(model))
      expect(answer.status).toBe(502)
      // One attempt in all, on whichever channel was picked.
      expect(count('sk-fo-none-primary') + count('sk-fo-none-backup')).toBe(
        before.primary + before.backup + 1,
      )
    } finally {
      await fixture.setOption('RetryTimes', 2)
    }
  })

  it('skips a channel of a type it cannot serve without using up the only attempt', async () => {
    const model = 'fo-unsupported'
    // A Proxy channel (type 43) is a raw pass-through that /v1 never relays to; it sits in the top tier.
    await fixture.addChannel({ models: [model], key: 'sk-fo-unsupported-native', priority: 10, type: 43 })
    const served = await fixture.addChannel({ models: [model], key: 'sk-fo-unsupported-openai', priority: 0 })
    await fixture.setOption('RetryTimes', 0)
    try {
      const completion = await chat(model)
      expect(completion.choices[0].message.content).toBe('Hello from the mock upstream')
      const [log] = await fixture.waitForLogs({ model }, 1)
      expect(log.channel_id).toBe(served)
      expect(count('sk-fo-unsupported-native')).toBe(0)
    } finally {
      await fixture.setOption('RetryTimes', 2)
    }
  })

  it('returns a 400 from the upstream as it is, without retrying', async () => {
    const { primaryKey, backupKey } = await pair('fo-400')
    fixture.mock.addFault({ match: { keyContains: primaryKey }, status: 400 })
    const answer = await relayFailure(chat('fo-400'))
    expect(answer.status).toBe(400)
    expect(answer.error.message).toContain('Invalid request (mock upstream).')
    expect(count(primaryKey)).toBe(1)
    expect(count(backupKey)).toBe(0)
  })

  it('refunds failed attempts: the balance moves exactly as if only the served call happened', async () => {
    const { primaryKey, backup } = await pair('fo-refund')
    const user = await fixture.createUser('refund-user', 1_000_000)
    const token = await fixture.createToken({ remain_quota: 100_000 }, user.client)
    const userClient = fixture.openai(token.key)
    fixture.mock.addFault({ match: { keyContains: primaryKey }, status: 500 })
    await chat('fo-refund', userClient)
    const logs = await fixture.waitForLogs({ userId: user.id }, 1)
    expect(logs.map((log) => log.quota)).toEqual([8])
    // 3 prompt words + 5 generated tokens at ratio 1.
    const balances = await fixture.balances(user.id, token.id)
    expect(balances).toEqual({
      user: { quota: 1_000_000 - 8, used_quota: 8, request_count: 1 },
      token: { remain_quota: 100_000 - 8, used_quota: 8 },
    })
    expect(await fixture.channelUsedQuota(backup)).toBe(8)

    // A request that fails everywhere costs nothing and is not counted.
    fixture.mock.addFault({ match: { model: 'fo-refund' }, status: 503, times: 3 })
    // The backup answers 503, then the cooling primary its 500: the last error is returned.
    expect((await relayFailure(chat('fo-refund', userClient))).status).toBeGreaterThanOrEqual(500)
    expect(await fixture.balances(user.id, token.id)).toEqual(balances)
    expect(await fixture.consumeLogs({ userId: user.id })).toHaveLength(1)
  })

  it('uses a lower priority tier only when the top tier failed', async () => {
    const model = 'fo-tiers'
    await fixture.addChannel({ models: [model], key: 'sk-top-a', priority: 5 })
    await fixture.addChannel({ models: [model], key: 'sk-top-b', priority: 5 })
    await fixture.addChannel({ models: [model], key: 'sk-low', priority: -1 })
    await Promise.all(Array.from({ length: 20 }, () => chat(model)))
    expect(count('sk-low')).toBe(0)
    expect(count('sk-top-a') + count('sk-top-b')).toBe(20)

    fixture.mock.addFault({ match: { keyContains: 'sk-top-' }, status: 500 })
    const before = { a: count('sk-top-a'), b: count('sk-top-b') }
    expect((await chat(model)).choices).toHaveLength(1)
    expect(count('sk-low')).toBe(1)
    expect(count('sk-top-a') - before.a).toBe(1)
    expect(count('sk-top-b') - before.b).toBe(1)
  })

  it('splits traffic inside a tier by weight', async () => {
    const model = 'fo-weights'
    await fixture.addChannel({ models: [model], key: 'sk-light', weight: 1 })
    await fixture.addChannel({ models: [model], key: 'sk-heavy', weight: 3 })
    const total = 400
    for (let sent = 0; sent < total; sent += 25)
      await Promise.all(Array.from({ length: 25 }, () => chat(model)))
    const heavy = count('sk-heavy')
    expect(heavy + count('sk-light')).toBe(total)
    // Expected 75 %; the standard deviation of the share is about 2 %, so this never flakes.
    expect(heavy / total).toBeGreaterThan(0.65)
    expect(heavy / total).toBeLessThan(0.85)
  }, 60_000)
})
