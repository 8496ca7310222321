import type OpenAI from 'openai'
import { toFile } from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { holdTransaction } from '../testing/held-transaction.ts'
import { type CreatedToken, expectedQuota, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

// Prices chosen so that results are fractional before rounding: (prompt + 3 × completion) × 0.45.
const MODEL_RATIO = 0.3
const COMPLETION_RATIO = 3
const GROUP_RATIO = 1.5
const MODEL = 'bill-model'
const NO_USAGE = 'bill-model+no-usage'
// The mock reports 4 of the prompt tokens as read from the provider's prompt cache.
const CACHED = 'bill-model+cached-tokens=4'
// A stream slow enough for a test to act while its reservation is held.
const SLOW = 'bill-model+chunk-delay-ms=40+chunks=10'
const GENERATED = 5
const USER_QUOTA = 10_000_000
const TOKEN_QUOTA = 1_000_000

const price = (prompt: number, completion: number) =>
  expectedQuota(prompt, completion, MODEL_RATIO, COMPLETION_RATIO, GROUP_RATIO)
const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index}`).join(' ')

describe.each(testDialects())('relay billing on %s', (dialect) => {
  let fixture: RelayFixture
  let channel: number

  async function billedUser(
    name: string,
    tokenFields: { remain_quota?: number; unlimited_quota?: boolean } = {},
  ) {
    const user = await fixture.createUser(name, USER_QUOTA)
    const token = await fixture.createToken(
      { name: `${name}-token`, remain_quota: TOKEN_QUOTA, ...tokenFields },
      user.client,
    )
    return { id: user.id, token, client: fixture.openai(token.key) }
  }
  const ask = (
    client: OpenAI,
    prompt: string,
    extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {},
  ) =>
    client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: prompt }], ...extra })
  async function askStreaming(client: OpenAI, prompt: string, model = MODEL) {
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: prompt }],
      stream: true,
    })
    const { text } = await readChatStream(stream)
    return text
  }

  /**
   * Starts a slow stream asking max_tokens 1 000 and waits for its first chunk, so its reservation
   * is held; the function it answers reads the rest.
   */
  async function streamHeldOpen(key: string): Promise<() => Promise<void>> {
    const stream = await fixture.openai(key).chat.completions.create({
      model: SLOW,
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
      max_tokens: 1_000,
    })
    const chunks = stream[Symbol.asyncIterator]()
    await chunks.next()
    return async () => {
      while (!(await chunks.next()).done) {}
    }
  }

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    const ratios = {
      [MODEL]: MODEL_RATIO,
      [NO_USAGE]: MODEL_RATIO,
      [CACHED]: MODEL_RATIO,
      [SLOW]: MODEL_RATIO,
      'whisper-1': 15,
    }
    await fixture.setPrices(ratios, {
      [MODEL]: COMPLETION_RATIO,
      [NO_USAGE]: COMPLETION_RATIO,
      [CACHED]: COMPLETION_RATIO,
      [SLOW]: COMPLETION_RATIO,
    })
    await fixture.setOption('GroupRatio', JSON.stringify({ default: GROUP_RATIO, vip: 1, svip: 1 }))
    channel = await fixture.addChannel({ models: [MODEL, NO_USAGE, CACHED, SLOW, 'whisper-1'] })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('keeps user, token, channel and log figures in exact agreement with the formula', async () => {
    const user = await billedUser('arithmetic')
    const promptSizes = [1, 2, 3, 4, 7, 10, 13]
    for (const size of promptSizes) await ask(user.client, words(size))
    for (const size of [5, 6])
      expect(await askStreaming(user.client, words(size))).toBe('Hello from the mock upstream')
    // Each request settles just after its answer, so two quick requests can log in either order;
    // the prompt sizes are all different, so the logs are compared in prompt-size order.
    const sizes = [...promptSizes, 5, 6].sort((a, b) => a - b)
    const expected = sizes.map((size) => price(size, GENERATED))

    const logs = (await fixture.waitForLogs({ userId: user.id }, sizes.length)).sort(
      (a, b) => a.prompt_tokens - b.prompt_tokens,
    )
    expect(logs.map((log) => log.quota)).toEqual(expected)
    expect(logs.map((log) => [log.prompt_tokens, log.completion_tokens])).toEqual(
      sizes.map((size) => [size, GENERATED]),
    )
    expect(logs.map((log) => log.is_stream)).toEqual(sizes.map((size) => size === 5 || size === 6))
    for (const log of logs) {
      expect(log).toMatchObject({
        channel_id: channel,
        model_name: MODEL,
        username: 'arithmetic',
        token_name: 'arithmetic-token',
        ip: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/),
      })
      expect(log.elapsed_time).toBeGreaterThanOrEqual(0)
      expect(log.elapsed_time).toBeLessThan(10_000)
      expect(log.content).toBe('model ratio 0.30, group ratio 1.50, completion ratio 3.00')
      expect(log.request_id).toBeTruthy()
    }
    const total = expected.reduce((sum, quota) => sum + quota, 0)
    expect(await fixture.balances(user.id, user.token.id)).toEqual({
      user: { quota: USER_QUOTA - total, used_quota: total, request_count: sizes.length },
      token: { remain_quota: TOKEN_QUOTA - total, used_quota: total },
    })
    const allLogs = await fixture.consumeLogs({ model: MODEL })
    expect(await fixture.channelUsedQuota(channel)).toBe(allLogs.reduce((sum, log) => sum + log.quota, 0))
  })

  it('bills cached prompt tokens at half the prompt price, in replies and in streams', async () => {
    const user = await billedUser('cached')
    await ask(user.client, words(10), { model: CACHED })
    await askStreaming(user.client, words(10), CACHED)
    // (10 - 4 + 4 × 0.5 + 5 × 3) × 0.3 × 1.5 = 10.35, rounded up; without the cache it would be 12.
    const logs = await fixture.waitForLogs({ userId: user.id }, 2)
    expect(logs.map((log) => [log.prompt_tokens, log.quota])).toEqual([
      [10, 11],
      [10, 11],
    ])
    expect((await fixture.balances(user.id, user.token.id)).token.used_quota).toBe(22)
  })

  it('records used quota on unlimited tokens too', async () => {
    const user = await billedUser('unlimited', { unlimited_quota: true, remain_quota: 0 })
    await ask(user.client, words(4))
    await askStreaming(user.client, words(2))
    await fixture.waitForLogs({ userId: user.id }, 2)
    const total = price(4, GENERATED) + price(2, GENERATED)
    expect(await fixture.balances(user.id, user.token.id)).toEqual({
      user: { quota: USER_QUOTA - total, used_quota: total, request_count: 2 },
      token: { remain_quota: 0, used_quota: total },
    })
  })

  it('counts tokens locally when the upstream reports no usage, and says so in the log', async () => {
    const user = await billedUser('no-usage')
    const reply = await user.client.chat.completions.create({
      model: NO_USAGE,
      messages: [{ role: 'user', content: words(6) }],
    })
    expect(reply.usage).toBeUndefined()
    expect(await askStreaming(user.client, words(6), NO_USAGE)).toBe('Hello from the mock upstream')
    const logs = await fixture.waitForLogs({ userId: user.id }, 2)
    expect(logs).toHaveLength(2)
    for (const log of logs) {
      expect(log.content).toContain('tokens counted locally')
      // The local count of the chat prompt includes the per-message overhead of OpenAI's format.
      expect(log.prompt_tokens).toBeGreaterThan(6)
      expect(log.completion_tokens).toBeGreaterThan(0)
      expect(log.completion_tokens).toBeLessThan(20)
      expect(log.quota).toBe(price(log.prompt_tokens, log.completion_tokens))
    }
    expect(logs[0].completion_tokens).toBe(logs[1].completion_tokens)
    const total = logs[0].quota + logs[1].quota
    expect((await fixture.balances(user.id, user.token.id)).token.used_quota).toBe(total)
  })

  it('counts a 3 MB prompt of one repeated letter at once, where the tokenizer alone would take hours', async () => {
    const user = await billedUser('one-letter')
    await user.client.chat.completions.create({
      model: NO_USAGE,
      messages: [{ role: 'user', content: 'x'.repeat(3_000_000) }],
    })
    const [log] = await fixture.waitForLogs({ userId: user.id }, 1)
    // "x" × 8 is one token: the first million letters are counted (125,000 tokens) and the count
    // scaled to three million; plus 3 per message, 1 for the role and 3 for the reply's priming.
    expect(log.prompt_tokens).toBe(375_007)
    expect(log.quota).toBe(price(log.prompt_tokens, log.completion_tokens))
  })

  it('counts a chat prompt with the byte estimate when ApproximateTokenEnabled is on', async () => {
    const user = await billedUser('approximate')
    await fixture.setOption('ApproximateTokenEnabled', true)
    try {
      await user.client.chat.completions.create({
        model: NO_USAGE,
        messages: [{ role: 'user', content: 'x'.repeat(800) }],
      })
    } finally {
      await fixture.setOption('ApproximateTokenEnabled', false)
    }
    const [log] = await fixture.waitForLogs({ userId: user.id }, 1)
    // floor(800 bytes × 0.38) = 304 and floor(4 × 0.38) = 1 for "user", with the format's 3 + 3
    // (the tokenizer would say 100 for the 800 letters).
    expect(log.prompt_tokens).toBe(311)
  })

  it('bills a stream from its usage chunk, not from a local count', async () => {
    const user = await billedUser('stream-usage')
    fixture.mock.addFault({ match: { model: MODEL }, promptTokens: 40, chunks: 12, times: 1 })
    await askStreaming(user.client, 'short prompt')
    const [log] = await fixture.waitForLogs({ userId: user.id }, 1)
    expect(log).toMatchObject({
      prompt_tokens: 40,
      completion_tokens: 12,
      is_stream: true,
      quota: price(40, 12),
    })
    expect(log.content).not.toContain('counted locally')
  })

  it('makes a quota an administrator sets while requests are in flight what is left once they settle', async () => {
    const owner = await fixture.createUser('midflight', USER_QUOTA)
    const token = await fixture.createToken(
      { name: 'midflight-token', remain_quota: TOKEN_QUOTA },
      owner.client,
    )
    // Its reservation for max_tokens (about 1 600) is held from here on.
    const finish = await streamHeldOpen(token.key)
    const current = (await owner.client.get(`/api/token/${token.id}`)).body.data
    expect((await owner.client.put('/api/token/', { ...current, remain_quota: 500_000 })).status).toBe(200)
    const edited = await fixture.root.put('/api/user/', {
      id: owner.id,
      username: 'midflight',
      password: '',
      group: 'default',
      quota: 5_000_000,
    })
    expect(edited.status).toBe(200)
    await finish()
    const [log] = await fixture.waitForLogs({ userId: owner.id }, 1)
    expect(log!.quota).toBe(price(1, 10))
    // Settling gave back the unspent part of a reservation taken from the old balances: the new
    // ones were set as absolute values, and came out about 1 600 higher than set.
    const { user, token: tokenBalance } = await fixture.balances(owner.id, token.id)
    expect(tokenBalance.remain_quota).toBe(500_000 - log!.quota)
    expect(user.quota).toBe(5_000_000 - log!.quota)
  })

  it("subtracts nothing from an unlimited token's balance set while its requests are in flight", async () => {
    const owner = await fixture.createUser('unlimflight', USER_QUOTA)
    const token = await fixture.createToken(
      { name: 'unlimflight-token', unlimited_quota: true },
      owner.client,
    )
    const finish = await streamHeldOpen(token.key)
    const current = (await owner.client.get(`/api/token/${token.id}`)).body.data
    expect((await owner.client.put('/api/token/', { ...current, remain_quota: 500_000 })).status).toBe(200)
    await finish()
    await fixture.waitForLogs({ userId: owner.id }, 1)
    // Its requests never move an unlimited token's balance: it stays as set (it was 1 600 lower).
    expect((await fixture.balances(owner.id, token.id)).token.remain_quota).toBe(500_000)
  })

  it('subtracts what is in flight from a token made limited mid-request, so it gets nothing it never paid', async () => {
    const owner = await fixture.createUser('madelimit', USER_QUOTA)
    const token = await fixture.createToken({ name: 'madelimit-token', unlimited_quota: true }, owner.client)
    const finish = await streamHeldOpen(token.key)
    const current = (await owner.client.get(`/api/token/${token.id}`)).body.data
    const edited = await owner.client.put('/api/token/', {
      ...current,
      unlimited_quota: false,
      remain_quota: 500_000,
    })
    expect(edited.status).toBe(200)
    await finish()
    const [log] = await fixture.waitForLogs({ userId: owner.id }, 1)
    // Its settlement, now on a limited token, gives back the reservation's unspent part, which an
    // unlimited token's balance never paid: it ended about 1 600 above what was set.
    expect((await fixture.balances(owner.id, token.id)).token.remain_quota).toBe(500_000 - log!.quota)
  })

  it.skipIf(dialect === 'sqlite')(
    'subtracts a reservation that commits while the quota is being set',
    async () => {
      const owner = await fixture.createUser('racedquota', USER_QUOTA)
      const token = await fixture.createToken(
        { name: 'racedquota-token', remain_quota: TOKEN_QUOTA },
        owner.client,
      )
      const current = (await owner.client.get(`/api/token/${token.id}`)).body.data
      // A reservation as the ledger makes it, held open while the owner sets a new balance.
      const reservation = await holdTransaction(fixture.db, async (trx) => {
        await trx
          .updateTable('tokens')
          .set({ remain_quota: TOKEN_QUOTA - 1_600, used_quota: 1_600 })
          .where('id', '=', token.id)
          .execute()
        await trx
          .insertInto('quota_holds')
          .values({ node_id: 'another-node', token_id: token.id, user_id: owner.id, amount: 1_600 })
          .execute()
      })
      const edit = owner.client.put('/api/token/', { ...current, remain_quota: 500_000 })
      await new Promise((resolve) => setTimeout(resolve, 200)) // the edit now waits for the row
      reservation.commit()
      await reservation.finished
      expect((await edit).status).toBe(200)
      // PostgreSQL read the holds before the reservation committed: 500 000, 1 600 too high.
      expect((await fixture.balances(owner.id, token.id)).token.remain_quota).toBe(500_000 - 1_600)
      await fixture.db.deleteFrom('quota_holds').where('node_id', '=', 'another-node').execute()
    },
  )

  it("refuses a request whose worst case does not fit the token's quota, before any upstream call", async () => {
    const user = await billedUser('tight-token', { remain_quota: 1_000 })
    const before = fixture.mock.requests.length
    // (500 PreConsumedQuota + prompt + 1000 × 3) × 0.45 is far above 1 000.
    const refused = await relayFailure(ask(user.client, 'hello', { max_tokens: 1_000 }))
    expect(refused).toMatchObject({ status: 403, error: { code: 'insufficient_token_quota' } })
    expect(refused.error.message).toContain(`(request id: ${refused.requestId})`)
    // The newer name of the same limit, which reasoning models require, is held to it too.
    const refusedNewName = await relayFailure(ask(user.client, 'hello', { max_completion_tokens: 1_000 }))
    expect(refusedNewName).toMatchObject({ status: 403, error: { code: 'insufficient_token_quota' } })
    expect(fixture.mock.requests.length).toBe(before)
    expect(await fixture.balances(user.id, user.token.id)).toEqual({
      user: { quota: USER_QUOTA, used_quota: 0, request_count: 0 },
      token: { remain_quota: 1_000, used_quota: 0 },
    })
    // Without max_tokens the reservation is small enough, and the request is billed as usual.
    await ask(user.client, 'hello')
    await fixture.waitForLogs({ userId: user.id }, 1)
    expect((await fixture.balances(user.id, user.token.id)).token.remain_quota).toBe(
      1_000 - price(1, GENERATED),
    )
  })

  it('reserves max_tokens for each of the n choices asked for, so n cannot overspend a token', async () => {
    // (500 + prompt + 300 × 3) × 0.45 is about 630 and fits 1 000; times n = 4 choices it does not.
    const user = await billedUser('many-choice', { remain_quota: 1_000 })
    const before = fixture.mock.requests.length
    const refused = await relayFailure(ask(user.client, 'hello', { max_tokens: 300, n: 4 }))
    expect(refused).toMatchObject({ status: 403, error: { code: 'insufficient_token_quota' } })
    expect(fixture.mock.requests.length).toBe(before)
    await ask(user.client, 'hello', { max_tokens: 300, n: 1 })
    await fixture.waitForLogs({ userId: user.id }, 1)
  })

  it('needs quota left for a priced request whose estimate is 0 (an upload with PreConsumedQuota 0)', async () => {
    await fixture.setOption('PreConsumedQuota', 0)
    try {
      const user = await billedUser('empty-audio', { remain_quota: 0 })
      const before = fixture.mock.requests.length
      const upload = await toFile(Buffer.from('RIFF fake wave', 'latin1'), 'a.wav', { type: 'audio/wav' })
      const refused = await relayFailure(
        user.client.audio.transcriptions.create({ model: 'whisper-1', file: upload }),
      )
      expect(refused).toMatchObject({ status: 403, error: { code: 'insufficient_token_quota' } })
      expect(fixture.mock.requests.length).toBe(before)
      expect((await fixture.balances(user.id, user.token.id)).token).toEqual({
        remain_quota: 0,
        used_quota: 0,
      })
    } finally {
      await fixture.setOption('PreConsumedQuota', 500)
    }
  })

  it("refuses a request that does not fit the user's own quota", async () => {
    const user = await fixture.createUser('poor-user', 100)
    const token: CreatedToken = await fixture.createToken({ unlimited_quota: true }, user.client)
    const before = fixture.mock.requests.length
    const refused = await relayFailure(ask(fixture.openai(token.key), 'hello'))
    expect(refused).toMatchObject({ status: 403, error: { code: 'insufficient_user_quota' } })
    expect(fixture.mock.requests.length).toBe(before)
    expect((await fixture.balances(user.id, token.id)).user).toEqual({
      quota: 100,
      used_quota: 0,
      request_count: 0,
    })
  })
})
