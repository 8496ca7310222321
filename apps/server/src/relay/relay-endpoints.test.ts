import type OpenAI from 'openai'
import { toFile } from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const TRANSCRIPT = 'Hello from the mock upstream transcription.'
const MODELS = [
  'dall-e-2',
  'dall-e-3',
  'gpt-3.5-turbo-instruct',
  'gpt-4o-mini',
  'gpt-4o-transcribe',
  'gpt-image-1',
  'omni-moderation-latest',
  'text-embedding-3-small',
  'tts-1',
  'whisper-1',
]

describe.each(testDialects())('relay endpoints on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let key: string
  const lastUpstream = () => fixture.mock.requests.at(-1)!
  /** The newest log of a model, once `count` of them were written. */
  const lastLog = async (model: string) => (await fixture.waitForLogs({ model }, 1)).at(-1)
  const get = (path: string, token = key) =>
    fetch(`${fixture.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({ models: MODELS })
    // Not priced by default: priced per token as OpenAI does ($5 / $40 and $2.50 / $10 per 1M).
    await fixture.setPrices(
      { 'gpt-image-1': 2.5, 'gpt-4o-transcribe': 1.25 },
      { 'gpt-image-1': 8, 'gpt-4o-transcribe': 4 },
    )
    key = (await fixture.createToken()).key
    client = fixture.openai(key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('relays legacy completions', async () => {
    const completion = await client.completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'once upon a time',
    })
    expect(completion.choices[0].text).toBe('Hello from the mock upstream')
    expect(completion.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 })
    expect(await lastLog('gpt-3.5-turbo-instruct')).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 })
  })

  it('relays embeddings, also under /v1/engines/:model/embeddings', async () => {
    const embeddings = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['a b', 'c'],
    })
    expect(embeddings.data).toHaveLength(2)
    expect(embeddings.data[1].embedding).toHaveLength(8)
    expect(embeddings.usage.prompt_tokens).toBe(3)
    const response = await fetch(`${fixture.baseUrl}/v1/engines/text-embedding-3-small/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'one two three four' }),
    })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { usage: { prompt_tokens: number } }).usage.prompt_tokens).toBe(4)
    // Asked as OpenAI serves it today: /v1/embeddings with the model in the body.
    expect(lastUpstream().path).toBe('/v1/embeddings')
    expect(JSON.parse(lastUpstream().body.toString()).model).toBe('text-embedding-3-small')
    expect(await fixture.logFor(response.headers.get(REQUEST_ID))).toMatchObject({
      prompt_tokens: 4,
      completion_tokens: 0,
    })
    // With a trailing slash too (it answered 501 "API not implemented"), asked upstream without it.
    const slashed = await fetch(`${fixture.baseUrl}/v1/embeddings/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input: 'one two' }),
    })
    expect(slashed.status).toBe(200)
    expect(lastUpstream().path).toBe('/v1/embeddings')
  })

  it('reads an embedding asked for with "stream": true as the plain answer it is', async () => {
    // Only chat and completions stream; this was a 502 (stream expected) that cooled channels down.
    const response = await fetch(`${fixture.baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input: 'one two', stream: true }),
    })
    expect(response.status).toBe(200)
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(1)
    expect(await fixture.logFor(response.headers.get(REQUEST_ID))).toMatchObject({ prompt_tokens: 2 })
  })

  it("relays moderations with OpenAI's default model", async () => {
    const moderation = await client.moderations.create({ input: 'flag-me now' })
    expect(moderation.results[0].flagged).toBe(true)
    expect(moderation.results[0].categories.harassment).toBe(true)
    // The SDK names no model: OpenAI's default is omni-moderation-latest, routed and billed as such (it
    // was text-moderation-latest, refused to a token or group allowed only the omni model), and
    // named to the upstream, so that it serves the model billed.
    expect(JSON.parse(lastUpstream().body.toString()).model).toBe('omni-moderation-latest')
    expect(await lastLog('omni-moderation-latest')).toBeDefined()
  })

  it("takes null as absent where OpenAI's schema makes a field nullable", async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${fixture.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    // [path, body, what the answer holds, the model billed]: a null model is the endpoint's default.
    const requests: Array<[string, unknown, string, string]> = [
      [
        '/v1/chat/completions',
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: null },
        '"choices"',
        'gpt-4o-mini',
      ],
      ['/v1/images/generations', { model: null, prompt: 'a cat' }, '"url"', 'dall-e-2'],
      ['/v1/images/generations', { model: '', prompt: 'a cat' }, '"url"', 'dall-e-2'],
      [
        '/v1/images/generations',
        { model: 'dall-e-3', prompt: 'a cat', size: null, stream: null },
        '"url"',
        'dall-e-3',
      ],
    ]
    for (const [path, body, answered, billed] of requests) {
      const response = await post(path, body)
      expect(response.status, JSON.stringify(body)).toBe(200)
      expect(await response.text()).toContain(answered)
      expect(await fixture.logFor(response.headers.get(REQUEST_ID))).toMatchObject({ model_name: billed })
      // The upstream is asked for the model billed, not left to pick its own default.
      expect(JSON.parse(lastUpstream().body.toString()).model).toBe(billed)
    }
  })

  it('relays image generations and bills per image and size', async () => {
    const tall = await client.images
      .generate({ model: 'dall-e-3', prompt: 'a tall cat', size: '1024x1792' })
      .withResponse()
    expect(tall.data.data?.[0].url).toMatch(/^https:\/\//)
    // dall-e-3 costs ratio 20 × 1000 per standard image; 1024x1792 is 2x.
    expect(await fixture.logFor(tall.response.headers.get(REQUEST_ID))).toMatchObject({
      quota: 40_000,
      prompt_tokens: 0,
      completion_tokens: 0,
    })
    const small = await client.images
      .generate({ model: 'dall-e-2', prompt: 'two small cats', size: '256x256', n: 2 })
      .withResponse()
    expect(small.data.data).toHaveLength(2)
    expect(await fixture.logFor(small.response.headers.get(REQUEST_ID))).toMatchObject({ quota: 20_000 })
  })

  it('bills gpt-image-1 by the tokens it reports, with the completion ratio', async () => {
    const { data, response } = await client.images
      .generate({ model: 'gpt-image-1', prompt: 'a small red cat' })
      .withResponse()
    expect(data.data?.[0].b64_json).toBeTruthy()
    // The mock reports 4 input tokens (the prompt's words) and 272 output tokens per image:
    // (4 + 272 × 8) × 2.5 = 5 450. Billed per image, it cost 2 500 whatever its size and quality.
    expect(await fixture.logFor(response.headers.get(REQUEST_ID))).toMatchObject({
      prompt_tokens: 4,
      completion_tokens: 272,
      quota: 5450,
      content: expect.stringContaining('completion ratio 8.00'),
    })
  })

  it('reserves what a gpt-image-1 request can cost in tokens, so a token cannot overdraw', async () => {
    const limited = fixture.openai((await fixture.createToken({ remain_quota: 10_000 })).key)
    const callsBefore = fixture.mock.requests.length
    // High quality may cost 4 160 output tokens an image: (500 + 4 + 4 160 × 8) × 2.5 = 84 460,
    // refused. Reserved per image (2 500), it was served and drove the token below 0.
    const refused = await relayFailure(
      limited.images.generate({ model: 'gpt-image-1', prompt: 'a small red cat', quality: 'high' }),
    )
    expect(refused).toMatchObject({ status: 403, error: { code: 'insufficient_token_quota' } })
    expect(fixture.mock.requests.length).toBe(callsBefore)
    // Low quality, square: (500 + 4 + 272 × 8) × 2.5 = 6 700 fits, and costs the 5 450 reported.
    const { response } = await limited.images
      .generate({ model: 'gpt-image-1', prompt: 'a small red cat', quality: 'low', size: '1024x1024' })
      .withResponse()
    expect(await fixture.logFor(response.headers.get(REQUEST_ID))).toMatchObject({ quota: 5450 })
  })

  it('bills the images an answer carried when the upstream made fewer than asked', async () => {
    fixture.mock.addFault({ match: { model: 'dall-e-2' }, images: 1, times: 1 })
    const { response } = await client.images
      .generate({ model: 'dall-e-2', prompt: 'two small cats', size: '256x256', n: 2 })
      .withResponse()
    // dall-e-2 at 256x256 costs 10 000 an image: one image came back, one is billed (20 000 before).
    expect(await fixture.logFor(response.headers.get(REQUEST_ID))).toMatchObject({ quota: 10_000 })
  })

  it('passes on the images of a model that answers a stream request with JSON', async () => {
    // dall-e-3 cannot stream: its JSON answer was a 502 retried on every channel, each making an image.
    const response = await fetch(`${fixture.baseUrl}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'dall-e-3', prompt: 'a cat', stream: true }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(((await response.json()) as { data: unknown[] }).data).toHaveLength(1)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ quota: 20_000 })
    // It was answered as JSON, not as a stream (the log said it was streamed).
    expect(Boolean(log.is_stream)).toBe(false)
  })

  it("refuses image and speech requests outside the model's limits, before any upstream call or charge", async () => {
    const callsBefore = fixture.mock.requests.length
    const refusals = [
      [
        () => client.images.generate({ model: 'dall-e-3', prompt: 'a cat', size: '512x512' }),
        'size_not_supported',
      ],
      [() => client.images.generate({ model: 'dall-e-3', prompt: 'two cats', n: 2 }), 'n_not_within_range'],
      [() => client.images.generate({ model: 'dall-e-2', prompt: 'cats', n: 11 }), 'n_not_within_range'],
      [() => client.images.generate({ model: 'dall-e-2', prompt: 'c'.repeat(1001) }), 'prompt_too_long'],
      // Models without limits of their own are held to OpenAI's 1-10 (n 10^11 was billed as asked).
      [() => client.images.generate({ model: 'gpt-image-1', prompt: 'cats', n: 11 }), 'n_not_within_range'],
      [
        () => client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'a'.repeat(4097) }),
        'text_too_long',
      ],
    ] as const
    // One at a time: each call starts only when the previous refusal has been checked.
    for (const [call, code] of refusals) {
      const refused = await relayFailure(call())
      expect(refused).toMatchObject({ status: 400, error: { code, type: 'invalid_request_error' } })
      expect(refused.error.message).toMatch(/dall-e-[23]|gpt-image-1|4096 characters/)
      expect(await fixture.consumeLogs({ requestId: refused.requestId })).toEqual([])
    }
    expect(fixture.mock.requests.length).toBe(callsBefore)
    // At the limits the request goes through.
    await client.images.generate({ model: 'dall-e-2', prompt: 'c'.repeat(1000), n: 10, size: '512x512' })
    await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'a'.repeat(4096) })
    // Characters are code points, as the providers and the speech price count them: 4 096 emoji
    // are 8 192 UTF-16 units and were refused as too long.
    await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: '😀'.repeat(4096) })
    await client.images.generate({ model: 'dall-e-2', prompt: '🐈'.repeat(1000) })
    expect(fixture.mock.requests.length).toBe(callsBefore + 4)
    expect(
      await relayFailure(
        client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: '😀'.repeat(4097) }),
      ),
    ).toMatchObject({
      status: 400,
      error: { code: 'text_too_long' },
    })
  })

  it('relays text to speech as a binary body, billed per character', async () => {
    const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello world' })
    expect(speech.headers.get('content-type')).toBe('audio/mpeg')
    const audio = Buffer.from(await speech.arrayBuffer())
    expect(audio.length).toBe(4096)
    expect(audio.subarray(0, 3).toString('latin1')).toBe('ID3')
    // 11 characters × 7.5, rounded up.
    expect(await fixture.logFor(speech.headers.get(REQUEST_ID))).toMatchObject({ quota: 83 })
  })

  it('relays transcriptions and translations as multipart uploads', async () => {
    const audio = Buffer.from('RIFF fake wave bytes \u0000\u0001\u0002', 'latin1')
    const transcription = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(audio, 'speech.wav', { type: 'audio/wav' }),
    })
    expect(transcription.text).toBe(TRANSCRIPT)
    const upstream = lastUpstream()
    expect(upstream.path).toMatch(/\/audio\/transcriptions$/)
    expect(upstream.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    expect(upstream.body.includes(audio)).toBe(true)
    const translation = await client.audio.translations.create({
      model: 'whisper-1',
      file: await toFile(audio, 'speech.wav'),
      response_format: 'text',
    })
    expect(String(translation).trim()).toBe(TRANSCRIPT)
    expect(lastUpstream().path).toMatch(/\/audio\/translations$/)
    const logs = await fixture.waitForLogs({ model: 'whisper-1' }, 2)
    expect(logs).toHaveLength(2)
    for (const log of logs) {
      expect(log.prompt_tokens).toBeGreaterThan(0)
      // whisper-1 costs ratio 15 per token of the transcribed text.
      expect(log.quota).toBe(log.prompt_tokens * 15)
    }
    // An upload naming no model is billed as whisper-1, and the upstream is told so (it got no
    // model field at all, and would refuse the upload or pick a model of its own).
    const form = new FormData()
    form.append('file', new Blob([audio], { type: 'audio/wav' }), 'speech.wav')
    const unnamed = await fetch(`${fixture.baseUrl}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    })
    expect(unnamed.status).toBe(200)
    expect(lastUpstream().body.toString('latin1')).toMatch(/name="model"\r\n\r\nwhisper-1\r\n/)
  })

  it('bills gpt-4o-transcribe by its audio and text tokens, with the completion ratio', async () => {
    const { response } = await client.audio.transcriptions
      .create({
        model: 'gpt-4o-transcribe',
        file: await toFile(Buffer.from('RIFF fake wave bytes', 'latin1'), 'speech.wav'),
      })
      .withResponse()
    // The mock reports 14 audio tokens in and 9 text tokens out: (14 + 9 × 4) × 1.25 = 62.5 → 63.
    // The total at the input price (23 × 1.25 = 29) left the output tokens out of the log as well.
    expect(await fixture.logFor(response.headers.get(REQUEST_ID))).toMatchObject({
      prompt_tokens: 14,
      completion_tokens: 9,
      quota: 63,
    })
  })

  it('relays a transcription asked for as events as they arrive, billed by its done event', async () => {
    // It was gathered whole and sent at the end (and logged as not streamed).
    fixture.mock.addFault({ match: { model: 'gpt-4o-transcribe' }, chunkDelayMs: 300, times: 1 })
    const form = new FormData()
    form.append('model', 'gpt-4o-transcribe')
    form.append('stream', 'true')
    form.append('file', new Blob([Buffer.from('RIFF fake wave bytes', 'latin1')]), 'speech.wav')
    const started = Date.now()
    const response = await fetch(`${fixture.baseUrl}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = response.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    // The first word came before the upstream had finished (seven words and the done event, 300 ms apart).
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(first).toContain('"type":"transcript.text.delta"')
    let rest = ''
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      rest += new TextDecoder().decode(part.value)
    }
    expect(rest).toContain('"type":"transcript.text.done"')
    expect(await fixture.logFor(response.headers.get(REQUEST_ID))).toMatchObject({
      prompt_tokens: 14,
      completion_tokens: 9,
      quota: 63,
      is_stream: expect.anything(),
    })
    expect(Boolean((await fixture.logFor(response.headers.get(REQUEST_ID))).is_stream)).toBe(true)
  })

  it("lists the models of the user's group, or only the token's allowed models", async () => {
    // A model whose only channel is a Proxy (type 43) cannot be asked for through /v1: not listed
    // (it was, and a chat with it answered 503).
    await fixture.addChannel({ type: 43, models: ['proxy-only-model'], base_url: fixture.mock.url })
    const all = await client.models.list()
    expect(all.data.map((model) => model.id)).toEqual(MODELS)
    expect(all.data[0]).toMatchObject({ object: 'model', owned_by: expect.any(String) })
    expect(await client.models.retrieve('gpt-4o-mini')).toMatchObject({ id: 'gpt-4o-mini', object: 'model' })

    // A token's list narrows what the group's channels serve, never adds to it: a model no channel
    // serves was listed (and a chat with it answered 503).
    const limited = fixture.openai(
      (await fixture.createToken({ models: 'gpt-4o-mini,tts-1,not-served-model' })).key,
    )
    expect((await limited.models.list()).data.map((model) => model.id)).toEqual(['gpt-4o-mini', 'tts-1'])
    expect(await relayFailure(limited.models.retrieve('not-served-model'))).toMatchObject({ status: 404 })
    const hidden = await relayFailure(limited.models.retrieve('dall-e-3'))
    expect(hidden).toMatchObject({ status: 404, error: { code: 'model_not_found' } })
    expect(hidden.requestId).toBeTruthy()
    expect(await relayFailure(client.models.retrieve('no-such-model'))).toMatchObject({ status: 404 })
    // An id with a slash (OpenRouter's, Together's) is found whether the client encodes it or not.
    await fixture.addChannel({ models: ['openai/gpt-4o'] })
    const routed = (await fixture.createToken({ models: 'openai/gpt-4o,gpt-4o-mini' })).key
    for (const path of ['/v1/models/openai/gpt-4o', '/v1/models/openai%2Fgpt-4o']) {
      const response = await get(path, routed)
      expect(response.status, path).toBe(200)
      expect(await response.json()).toMatchObject({ id: 'openai/gpt-4o', object: 'model' })
    }
    expect((await get('/v1/models/openai/gpt-4o-mini', routed)).status).toBe(404)
  })

  it('answers a URL it cannot decode with 400 in the shape its caller reads, with a request id', async () => {
    const relay = await get('/v1/models/%E0%A4%A')
    expect(relay.status).toBe(400)
    expect(relay.headers.get(REQUEST_ID)).toBeTruthy()
    expect(await relay.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        code: 'invalid_url',
        message: expect.stringContaining(relay.headers.get(REQUEST_ID)!),
      },
    })
    // The management API refuses as one-api does: HTTP 200 with success false.
    const management = await get('/api/status/%E0%A4%A')
    expect(management.status).toBe(200)
    expect(management.headers.get(REQUEST_ID)).toBeTruthy()
    expect(await management.json()).toMatchObject({
      success: false,
      message: expect.stringMatching(/^The URL is not valid/),
    })
  })

  it('reports the token balance on the dashboard billing endpoints, also under /v1', async () => {
    const limited = await fixture.createToken({ remain_quota: 1_000_000 })
    const { response } = await fixture
      .openai(limited.key)
      .embeddings.create({ model: 'text-embedding-3-small', input: 'a b c d' })
      .withResponse()
    await fixture.logFor(response.headers.get(REQUEST_ID))
    const { token } = await fixture.balances(1, limited.id)
    expect(token.used_quota).toBeGreaterThan(0)
    for (const prefix of ['', '/v1']) {
      const subscription = await get(`${prefix}/dashboard/billing/subscription`, limited.key)
      expect(subscription.status).toBe(200)
      expect(await subscription.json()).toMatchObject({
        object: 'billing_subscription',
        has_payment_method: true,
        hard_limit_usd: 2, // (remain + used) / QuotaPerUnit = 1 000 000 / 500 000
        soft_limit_usd: 2,
        access_until: 0,
      })
      const usage = await get(`${prefix}/dashboard/billing/usage`, limited.key)
      expect(await usage.json()).toEqual({ object: 'list', total_usage: (token.used_quota * 100) / 500_000 })
    }
    // In cents, as a client prints it: 8 units of 1/500,000 USD are 0.0016 cents, without float noise.
    await fixture.db.updateTable('tokens').set({ used_quota: 8 }).where('id', '=', limited.id).execute()
    const cents = await (await get('/v1/dashboard/billing/usage', limited.key)).text()
    expect(cents).toBe('{"object":"list","total_usage":0.0016}')
    const unlimited = await (await get('/dashboard/billing/subscription')).json()
    expect(unlimited).toMatchObject({ hard_limit_usd: 100_000_000 })
    expect((await get('/dashboard/billing/usage', 'sk-notakey')).status).toBe(401)
    // A token that expires says when.
    const expiresAt = Math.floor(Date.now() / 1000) + 3_600
    const expiring = await fixture.createToken({ remain_quota: 1_000, expired_time: expiresAt })
    expect(await (await get('/dashboard/billing/subscription', expiring.key)).json()).toMatchObject({
      access_until: expiresAt,
    })
    // With the token figures off, the owner's; with currency off, quota units, and the usage in
    // hundredths of them, so that a client's hard_limit_usd - total_usage / 100 is still the balance.
    await fixture.setOption('DisplayTokenStatEnabled', false)
    await fixture.setOption('DisplayInCurrencyEnabled', false)
    try {
      await fixture.db.updateTable('users').set({ used_quota: 250_000 }).where('id', '=', 1).execute()
      const { user } = await fixture.balances(1, limited.id)
      const owner = await (await get('/dashboard/billing/subscription', limited.key)).json()
      expect(owner).toMatchObject({
        hard_limit_usd: user.quota + user.used_quota,
        soft_limit_usd: user.quota + user.used_quota,
      })
      expect(await (await get('/v1/dashboard/billing/usage', limited.key)).json()).toEqual({
        object: 'list',
        total_usage: 25_000_000, // 250 000 quota × 100 (it was 50: cents against a limit in quota)
      })
    } finally {
      await fixture.setOption('DisplayTokenStatEnabled', true)
      await fixture.setOption('DisplayInCurrencyEnabled', true)
    }
  })

  it('answers 501 in OpenAI error shape for endpoints it does not serve', async () => {
    for (const [method, path] of [
      ['GET', '/v1/files'],
      ['POST', '/v1/files'],
      ['POST', '/v1/images/edits'],
      ['GET', '/v1/fine_tuning/jobs'],
      ['POST', '/v1/threads/abc/runs'],
      ['DELETE', '/v1/models/gpt-4o-mini'],
      // Everything else in OpenAI's published API, newer resources included.
      ['POST', '/v1/responses/resp_123/cancel'],
      ['GET', '/v1/responses/resp_123'],
      ['GET', '/v1/chat/completions'],
      ['POST', '/v1/realtime/sessions'],
      ['POST', '/v1/uploads'],
      ['GET', '/v1/organization/users'],
      ['POST', '/v1/videos'],
      ['PUT', '/v1/audio/speech'],
    ]) {
      const response = await fetch(`${fixture.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}` },
      })
      expect(response.status, path).toBe(501)
      expect(response.headers.get(REQUEST_ID)).toBeTruthy()
      const body = (await response.json()) as { error: Record<string, unknown> }
      expect(body.error).toMatchObject({ type: 'one_api_error', code: 'api_not_implemented' })
      expect(body.error.message).toMatch(/^API not implemented/)
      expect(body.error).toHaveProperty('param')
    }
    expect(await relayFailure(client.files.list())).toMatchObject({ status: 501 })
    // The token is checked first, as one-api does: a bad key is told so, not that the API is missing.
    const badKey = await fetch(`${fixture.baseUrl}/v1/files`, {
      headers: { authorization: 'Bearer sk-wrong' },
    })
    expect(badKey.status).toBe(401)
    const unknown = await fetch(`${fixture.baseUrl}/v1/no-such-endpoint`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({
      error: {
        message: `Invalid URL (GET /v1/no-such-endpoint) (request id: ${unknown.headers.get(REQUEST_ID)})`,
        type: 'invalid_request_error',
      },
    })
  })

  it('exposes Prometheus counters and latency histograms per channel and model', async () => {
    const readMetrics = async () => {
      const response = await fetch(`${fixture.baseUrl}/metrics`)
      expect(response.status).toBe(200)
      return response.text()
    }
    const refusedCount = (metrics: string) =>
      Number(
        /oneapi_relay_requests_total\{channel="none",model="none",status="401"\} (\d+)\n/.exec(
          metrics,
        )?.[1] ?? 0,
      )
    const before = await readMetrics()
    const model = 'model="gpt-3.5-turbo-instruct"'
    expect(before).toMatch(
      new RegExp(`oneapi_relay_requests_total\\{[^}]*${model}[^}]*status="200"[^}]*\\} 1\\n`),
    )
    expect(before).toMatch(new RegExp(`oneapi_upstream_duration_seconds_count\\{[^}]*${model}[^}]*\\} 1\\n`))
    expect(before).toMatch(
      new RegExp(
        `oneapi_gateway_overhead_seconds_count\\{channel="\\d+",${model},mode="completions"\\} 1\\n`,
      ),
    )
    // A refused request counts too, under channel and model "none" whatever model it named.
    const refused = await fetch(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-nosuchkey', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'anything-at-all', messages: [{ role: 'user', content: 'x' }] }),
    })
    expect(refused.status).toBe(401)
    const after = await readMetrics()
    expect(refusedCount(after)).toBe(refusedCount(before) + 1)
    expect(after).not.toContain('anything-at-all')
  })
})
