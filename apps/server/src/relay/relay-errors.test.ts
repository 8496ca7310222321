import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { TokenStatus } from '@one-api/contracts'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateTokenKey } from '../auth/random.ts'
import { insertToken, unlimitedToken } from '../db/repositories/tokens-repository.ts'
import { eventually } from '../testing/eventually.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const chat = (client: OpenAI, model = 'gpt-4o-mini') =>
  client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] })

interface ErrorAnswer {
  status: number
  error: { message: string; type: string; param: string | null; code: string | null }
  requestId?: string
}

/** OpenAI's error shape, with the request id both in the header and at the end of the message. */
function expectOpenAiError(answer: ErrorAnswer, status: number, code: string) {
  expect(answer.status).toBe(status)
  expect(Object.keys(answer.error).sort()).toEqual(['code', 'message', 'param', 'type'])
  expect(answer.error.code).toBe(code)
  expect(typeof answer.error.type).toBe('string')
  expect(answer.requestId).toBeTruthy()
  expect(answer.error.message.endsWith(`(request id: ${answer.requestId})`)).toBe(true)
}

describe.each(testDialects())('relay errors on %s', (dialect) => {
  let fixture: RelayFixture
  let rootKey: string
  let firstChannel: number
  let secondChannel: number
  const upstreamCount = () => fixture.mock.requests.length

  /** A raw request, for what the SDK cannot send (no key, broken JSON). */
  async function raw(body: string, authorization?: string): Promise<ErrorAnswer> {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (authorization) headers.authorization = authorization
    const response = await fetch(`${fixture.baseUrl}/v1/chat/completions`, { method: 'POST', headers, body })
    const json = (await response.json()) as { error: ErrorAnswer['error'] }
    return {
      status: response.status,
      error: json.error,
      requestId: response.headers.get(REQUEST_ID) ?? undefined,
    }
  }

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    firstChannel = await fixture.addChannel({
      models: ['gpt-4o-mini', 'gpt-4o'],
      key: 'sk-first',
      priority: 10,
    })
    secondChannel = await fixture.addChannel({ models: ['gpt-4o-mini', 'made-up-model'], key: 'sk-second' })
    rootKey = (await fixture.createToken()).key
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('refuses a request without a key or with an unknown key with 401', async () => {
    expectOpenAiError(
      await raw('{"model":"gpt-4o-mini","messages":[{"role":"user","content":"x"}]}'),
      401,
      'missing_api_key',
    )
    expectOpenAiError(
      await relayFailure(chat(fixture.openai('sk-NoSuchKey000000000000'))),
      401,
      'invalid_api_key',
    )
    expectOpenAiError(await relayFailure(chat(fixture.openai('Bearer nonsense-key'))), 401, 'invalid_api_key')
  })

  it('refuses a token at once after it is disabled through the management API', async () => {
    const token = await fixture.createToken({ name: 'to-disable' })
    const client = fixture.openai(token.key)
    expect((await chat(client)).choices).toHaveLength(1) // now cached by the gateway
    // A cached token is not read again: a change written behind the management API's back (which
    // announces every change) goes unseen until the cache's safety-net TTL, so no query was made.
    await fixture.db
      .updateTable('tokens')
      .set({ status: TokenStatus.disabled })
      .where('id', '=', token.id)
      .execute()
    expect((await chat(client)).choices).toHaveLength(1)
    const disabled = await fixture.root.put('/api/token/?status_only=true', {
      id: token.id,
      status: TokenStatus.disabled,
    })
    expect(disabled.status).toBe(200)
    expectOpenAiError(await relayFailure(chat(client)), 401, 'token_disabled')
    await fixture.root.put('/api/token/?status_only=true', { id: token.id, status: TokenStatus.enabled })
    expect((await chat(client)).choices).toHaveLength(1)
  })

  it('refuses a token with a key shorter than the column at once after it is disabled', async () => {
    // PostgreSQL pads char(48) with spaces: the key read back (and announced) had trailing blanks, so
    // the cached token was never dropped (INITIAL_ROOT_TOKEN may be 1-48 characters).
    const key = 'ShortKeyOfTwentyFour0000'
    await insertToken(fixture.db, unlimitedToken(1, 'short-key', key))
    const client = fixture.openai(`sk-${key}`)
    expect((await chat(client)).choices).toHaveLength(1) // now cached by the gateway
    const id = (
      await fixture.db
        .selectFrom('tokens')
        .select('id')
        .where('name', '=', 'short-key')
        .executeTakeFirstOrThrow()
    ).id
    const disabled = await fixture.root.put('/api/token/?status_only=true', {
      id,
      status: TokenStatus.disabled,
    })
    expect(disabled.status).toBe(200)
    expect(disabled.body.data.key).toBe(key)
    expectOpenAiError(await relayFailure(chat(client)), 401, 'token_disabled')
  })

  it('refuses an expired token with 401', async () => {
    const key = generateTokenKey()
    const now = Math.floor(Date.now() / 1000)
    await insertToken(fixture.db, {
      user_id: 1,
      key,
      status: TokenStatus.enabled,
      name: 'expired',
      created_time: now - 100,
      accessed_time: now - 100,
      expired_time: now - 10,
      remain_quota: 0,
      unlimited_quota: true,
      used_quota: 0,
    })
    const before = upstreamCount()
    expectOpenAiError(await relayFailure(chat(fixture.openai(`sk-${key}`))), 401, 'token_expired')
    expect(upstreamCount()).toBe(before)
    // The row says so too (status 3), as one-api records it, so the console shows why.
    const statusOf = async () =>
      (
        await fixture.db
          .selectFrom('tokens')
          .select('status')
          .where('key', '=', key)
          .executeTakeFirstOrThrow()
      ).status
    await eventually(async () => (await statusOf()) === TokenStatus.expired, 5_000)
    expectOpenAiError(await relayFailure(chat(fixture.openai(`sk-${key}`))), 401, 'token_expired')
  })

  it("refuses a model outside the token's model list with 403", async () => {
    const client = fixture.openai((await fixture.createToken({ models: 'gpt-4o' })).key)
    expectOpenAiError(await relayFailure(chat(client, 'gpt-4o-mini')), 403, 'model_not_allowed')
    expect((await chat(client, 'gpt-4o')).model).toBe('gpt-4o')
  })

  it("refuses a client outside the token's subnets with 403", async () => {
    const outside = fixture.openai((await fixture.createToken({ subnet: '10.0.0.0/8,192.168.1.1' })).key)
    expectOpenAiError(await relayFailure(chat(outside)), 403, 'ip_not_allowed')
    const inside = fixture.openai((await fixture.createToken({ subnet: '10.0.0.0/8,127.0.0.0/24' })).key)
    expect((await chat(inside)).choices).toHaveLength(1)
  })

  it('refuses the token of a disabled user with 403, at once', async () => {
    const { client: session } = await fixture.createUser('soon-banned', 1_000_000)
    const client = fixture.openai((await fixture.createToken({ remain_quota: 100_000 }, session)).key)
    expect((await chat(client)).choices).toHaveLength(1)
    const managed = await fixture.root.post('/api/user/manage', {
      username: 'soon-banned',
      action: 'disable',
    })
    expect(managed.status).toBe(200)
    expectOpenAiError(await relayFailure(chat(client)), 403, 'user_disabled')
  })

  it('lets an administrator pin a channel with sk-key-<id>, but not a normal user', async () => {
    const pinned = fixture.openai(`${rootKey}-${secondChannel}`)
    const before = fixture.requestsFor('sk-second').length
    for (let request = 0; request < 2; request++) {
      const { response } = await chat(pinned).withResponse()
      expect((await fixture.logFor(response.headers.get(REQUEST_ID))).channel_id).toBe(secondChannel)
    }
    expect(fixture.requestsFor('sk-second').length).toBe(before + 2)
    expectOpenAiError(await relayFailure(chat(fixture.openai(`${rootKey}-99999`))), 400, 'invalid_channel_id')
    // Ids no channel row can have are refused before any query (PostgreSQL would reject the value).
    for (const id of ['99999999999', '0', '1e3']) {
      const refused = await relayFailure(chat(fixture.openai(`${rootKey}-${id}`)))
      expectOpenAiError(refused, 400, 'invalid_channel_id')
      expect(refused.error.message).toContain(`must be a positive whole number, not "${id}"`)
    }

    const { client: session } = await fixture.createUser('pinner', 1_000_000)
    const userKey = (await fixture.createToken({ remain_quota: 100_000 }, session)).key
    expectOpenAiError(
      await relayFailure(chat(fixture.openai(`${userKey}-${firstChannel}`))),
      403,
      'channel_pinning_forbidden',
    )
  })

  it('refuses a pinned channel once it is disabled, and serves it again when re-enabled', async () => {
    const pinned = fixture.openai(`${rootKey}-${secondChannel}`)
    await fixture.updateChannel(secondChannel, { status: 2 })
    try {
      expectOpenAiError(await relayFailure(chat(pinned)), 403, 'channel_disabled')
    } finally {
      await fixture.updateChannel(secondChannel, { status: 1 })
    }
    const { response } = await chat(pinned).withResponse()
    expect((await fixture.logFor(response.headers.get(REQUEST_ID))).channel_id).toBe(secondChannel)
  })

  it('reads request bodies compressed with gzip, deflate or br, and refuses what cannot be decoded', async () => {
    const body = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello there' }],
    })
    const send = (encoding: string, bytes: Buffer) =>
      fetch(`${fixture.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${rootKey}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body: new Uint8Array(bytes),
      })
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
    ] as const) {
      const response = await send(encoding, bytes)
      // It was a 400 "not valid JSON": the compressed bytes were read as they came.
      expect(response.status, encoding).toBe(200)
      expect(((await response.json()) as { choices: unknown[] }).choices).toHaveLength(1)
      // The upstream gets the plain JSON, without the client's Content-Encoding.
      const upstream = fixture.mock.requests.at(-1)!
      expect(JSON.parse(upstream.body.toString('utf8')).messages[0].content).toBe('hello there')
      expect(upstream.headers['content-encoding']).toBeUndefined()
    }
    const before = upstreamCount()
    const errorOf = async (response: Response) => ({
      status: response.status,
      error: ((await response.json()) as { error: ErrorAnswer['error'] }).error,
      requestId: response.headers.get(REQUEST_ID) ?? undefined,
    })
    expectOpenAiError(await errorOf(await send('gzip', Buffer.from(body))), 400, 'invalid_content_encoding')
    expectOpenAiError(
      await errorOf(await send('compress', gzipSync(body))),
      415,
      'unsupported_content_encoding',
    )
    // 65 MB of zeros compress to about 64 kB: decoded, they are past the 64 MB a body may have.
    const bomb = gzipSync(Buffer.alloc(65 * 1024 * 1024))
    expectOpenAiError(await errorOf(await send('gzip', bomb)), 413, 'request_too_large')
    expect(upstreamCount()).toBe(before)
  })

  it('refuses malformed bodies with 400 before any upstream call', async () => {
    const before = upstreamCount()
    const authorization = `Bearer ${rootKey}`
    expectOpenAiError(await raw('{"model":"gpt-4o-mini","messages":[', authorization), 400, 'invalid_request')
    const missing = await relayFailure(
      fixture.openai(rootKey).chat.completions.create({ model: 'gpt-4o-mini', messages: [] }),
    )
    expectOpenAiError(missing, 400, 'invalid_request')
    expect(missing.error.param).toBe('messages')
    /** A 400 invalid_request naming `param`, whose message starts with `message`. */
    const expectInvalid = async (body: string, param: string, message: string) => {
      const answer = await raw(body, authorization)
      expectOpenAiError(answer, 400, 'invalid_request')
      expect(answer.error.param).toBe(param)
      expect(answer.error.message.startsWith(message)).toBe(true)
    }
    const user = '"messages":[{"role":"user","content":"x"}]'
    await expectInvalid(`{${user}}`, 'model', 'model is required')
    await expectInvalid(`{"model":4,${user}}`, 'model', 'model must be a string')
    await expectInvalid(
      `{"model":"gpt-4o-mini",${user},"max_completion_tokens":-5}`,
      'max_completion_tokens',
      'max_completion_tokens must be a non-negative integer',
    )
    // A message that is not an object was a 500 from the prompt counter.
    await expectInvalid(
      '{"model":"gpt-4o-mini","messages":[null]}',
      'messages',
      'each message must be an object',
    )
    await expectInvalid(`{"model":"gpt-4o-mini",${user},"n":0}`, 'n', 'n must be an integer from 1 to 128')
    expect(upstreamCount()).toBe(before)
  })

  it("passes an upstream's rate limit on with its Retry-After", async () => {
    fixture.mock.addFault({ match: { model: 'gpt-4o' }, status: 429, times: 1 })
    const response = await fetch(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rootKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
    })
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('1')
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded')
  })

  it("passes an upstream error's request id on, which the official client reports", async () => {
    fixture.mock.addFault({ match: { model: 'gpt-4o' }, status: 429, times: 1 })
    const failure = await chat(fixture.openai(rootKey), 'gpt-4o').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(OpenAI.APIError)
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(429)
    expect((failure as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(/^req_mock_\d+$/)
  })

  it('answers 503 for a model no channel serves', async () => {
    const answer = await relayFailure(chat(fixture.openai(rootKey), 'no-such-model'))
    expectOpenAiError(answer, 503, 'no_available_channel')
    expect(answer.error.message).toMatch(/^No available channel for model no-such-model/)
  })

  it('tells the official client, which retries 5xx answers, that retrying cannot help there', async () => {
    let calls = 0
    const client = new OpenAI({
      apiKey: rootKey,
      baseURL: `${fixture.baseUrl}/v1`,
      maxRetries: 2,
      fetch: (url, init) => {
        calls += 1
        return fetch(url, init)
      },
    })
    await expect(chat(client, 'no-such-model')).rejects.toMatchObject({ status: 503 })
    expect(calls).toBe(1)
    calls = 0
    await expect(client.files.list()).rejects.toMatchObject({ status: 501 })
    expect(calls).toBe(1)
  })

  it('answers 400 for a model with a channel but no price, without calling the upstream', async () => {
    const before = upstreamCount()
    const answer = await relayFailure(chat(fixture.openai(rootKey), 'made-up-model'))
    expectOpenAiError(answer, 400, 'model_price_not_set')
    expect(answer.error.message).toContain('made-up-model')
    expect(upstreamCount()).toBe(before)
    // Once an administrator prices it, it works.
    await fixture.setPrices({ 'made-up-model': 1 })
    expect((await chat(fixture.openai(rootKey), 'made-up-model')).model).toBe('made-up-model')
  })
})
