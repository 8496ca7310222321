import { request } from 'node:http'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const GENERATED = 'Hello from the mock upstream'
// The upstream closes the connection after three events (the role chunk and two pieces), no [DONE].
const CUT = 'cut-model+cut-after=3'
// Upstreams that report no usage: the gateway counts the prompt itself.
const LOCAL_PIRATE = 'pirate-local+no-usage'
const LOCAL_PLAIN = 'plain-local+no-usage'

describe.each(testDialects())('relay chat completions on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let key: string
  let firstChannel: number
  const lastUpstream = () => fixture.mock.requests.at(-1)!

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    firstChannel = await fixture.addChannel({ models: ['gpt-4o-mini', 'gpt-4o'] })
    await fixture.addChannel({ models: ['gpt-x'], model_mapping: { 'gpt-x': 'gpt-4o-mini' } })
    await fixture.addChannel({ models: ['gpt-4-turbo'], system_prompt: 'You are a pirate.' })
    await fixture.addChannel({ models: [LOCAL_PIRATE], system_prompt: 'Arr! '.repeat(40) })
    await fixture.addChannel({ models: [LOCAL_PLAIN] })
    const prices = { [CUT]: 1, [LOCAL_PIRATE]: 1, [LOCAL_PLAIN]: 1 }
    await fixture.setPrices(prices, prices)
    await fixture.addChannel({ models: [CUT] })
    key = (await fixture.createToken()).key
    client = fixture.openai(key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('answers a plain chat request with the upstream reply, its usage and a request id', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'say hello to me' }] })
      .withResponse()
    expect(data.object).toBe('chat.completion')
    expect(data.choices[0].message).toMatchObject({ role: 'assistant', content: GENERATED })
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 })
    expect(response.headers.get(REQUEST_ID)).toMatch(/^\w{10,}$/)
    // The upstream is called with the channel's key, never the client's.
    expect(lastUpstream().headers.authorization).toBe('Bearer sk-upstream-1')
  })

  it('counts a served request once in /metrics: under its channel, never also as refused', async () => {
    const counts = async () => {
      const metrics = await (await fetch(`${fixture.baseUrl}/metrics`)).text()
      const count = (labels: string) =>
        Number(new RegExp(`oneapi_relay_requests_total\\{${labels}\\} (\\d+)\\n`).exec(metrics)?.[1] ?? 0)
      return {
        served: count(`channel="${firstChannel}",model="gpt-4o-mini",status="200"`),
        refused: count('channel="none",model="none",status="503"'),
      }
    }
    const before = await counts()
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    })
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    })
    for await (const _chunk of stream) {
      // Read to the end.
    }
    expect(await counts()).toEqual({ served: before.served + 2, refused: before.refused })
  })

  it("passes on the upstream's request id, which the official client reports as its own", async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(completion._request_id).toMatch(/^req_mock_\d+$/)
    const { data: stream, request_id } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true })
      .withResponse()
    expect(request_id).toMatch(/^req_mock_\d+$/)
    expect(request_id).not.toBe(completion._request_id)
    for await (const _chunk of stream) {
      // Read to the end.
    }
  })

  it('streams the chunks in order and ends once, with no usage chunk unless asked for', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'stream please' }], stream: true })
      .withResponse()
    const { pieces, usageChunks } = await readChatStream(stream)
    expect(pieces).toEqual(['Hello', ' from', ' the', ' mock', ' upstream'])
    expect(usageChunks).toBe(0)
    // The gateway asked the upstream for usage on its own behalf (to bill exactly) and hid it.
    expect(lastUpstream().json?.stream_options).toEqual({ include_usage: true })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, prompt_tokens: 2, completion_tokens: 5 })
  })

  it('forwards exactly one usage chunk when the client asks for it', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'count my usage' }],
      stream: true,
      stream_options: { include_usage: true },
    })
    const { text, usage, usageChunks } = await readChatStream(stream)
    expect(text).toBe(GENERATED)
    expect(usageChunks).toBe(1)
    expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 })
  })

  it('ends a stream with exactly one data: [DONE] on the wire', async () => {
    const response = await fetch(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    expect(response.headers.get(REQUEST_ID)).toBeTruthy()
    const text = await response.text()
    expect(text.match(/data: \[DONE\]/g)).toHaveLength(1)
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true)
    const events = text.split('\n\n').filter(Boolean)
    expect(events.every((event) => event.startsWith('data: '))).toBe(true)
  })

  it("keeps a stream's connection open or closes it as the client asked, and says which", async () => {
    const streamOver = (connection: string) =>
      new Promise<{ header: string | undefined; body: string }>((resolve, reject) => {
        const call = request(`${fixture.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', connection },
        })
        call.on('error', reject)
        call.on('response', (response) => {
          let body = ''
          response.on('data', (chunk) => (body += chunk))
          response.on('end', () => resolve({ header: response.headers.connection, body }))
        })
        call.end(
          JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
        )
      })
    for (const connection of ['close', 'keep-alive']) {
      const { header, body } = await streamOver(connection)
      expect(header).toBe(connection)
      expect(body.endsWith('data: [DONE]\n\n')).toBe(true)
    }
  })

  it('passes on what a stream the upstream cut off carried, ends it as cut, and bills what arrived', async () => {
    const response = await fetch(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: CUT, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    let cut: unknown
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        text += decoder.decode(value, { stream: true })
      }
    } catch (error) {
      cut = error
    }
    // The body ends without its last chunk, as the upstream's own break would have ended it.
    expect(String(cut)).toMatch(/terminated/)
    expect(text).toContain('"content":" from"')
    expect(text).not.toContain('"content":" the"')
    expect(text).not.toContain('[DONE]')
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log.content).toContain('upstream stream broke off')
    expect(log.content).toContain('tokens counted locally')
    expect(log.completion_tokens).toBe(2) // "Hello", " from"
    expect(log.quota).toBe(log.prompt_tokens + 2)
  })

  it('lets the official client see a cut stream fail, as it would talking to the upstream', async () => {
    const stream = await client.chat.completions.create({
      model: CUT,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    })
    const received: string[] = []
    await expect(
      (async () => {
        for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '')
      })(),
    ).rejects.toThrow(/terminated/)
    expect(received.join('')).toBe('Hello from')
  })

  it('returns tool calls', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'what is the weather' }],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
        },
      ],
    })
    const choice = completion.choices[0]
    expect(choice.finish_reason).toBe('tool_calls')
    expect(choice.message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: '{"mock":true}' },
    })
    expect(lastUpstream().json?.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } },
    ])
  })

  it('passes image parts through unchanged', async () => {
    const content: OpenAI.ChatCompletionContentPart[] = [
      { type: 'text', text: 'what is in this picture' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
    ]
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content }],
    })
    expect(completion.choices[0].message.content).toBe(GENERATED)
    expect(lastUpstream().json?.messages).toEqual([{ role: 'user', content }])
  })

  it('passes the body through byte for byte when nothing needs changing, unknown fields included', async () => {
    const raw =
      '{ "model" : "gpt-4o-mini",\n  "messages": [{"role":"user","content":"hi \\u00e9t\\u00e9"}],' +
      ' "future_field": {"nested": [1, 2.50, "x"]}, "temperature": 0.70 }'
    const response = await fetch(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: raw,
    })
    expect(response.status).toBe(200)
    expect(lastUpstream().body.toString('utf8')).toBe(raw)
  })

  it('sends the mapped model upstream and logs the one billed, keeping unknown fields', async () => {
    const { data: completion, response } = await client.chat.completions
      .create({
        model: 'gpt-x',
        messages: [{ role: 'user', content: 'mapped model' }],
        // @ts-expect-error a field the SDK does not know yet must still reach the upstream
        future_field: { keep: true },
      })
      .withResponse()
    expect(completion.choices[0].message.content).toBe(GENERATED)
    expect(lastUpstream().json).toMatchObject({ model: 'gpt-4o-mini', future_field: { keep: true } })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    // Billed at the mapped model's price (gpt-4o-mini: 0.075, completion 4), and logged under it as
    // one-api logs it (logged under gpt-x, the log showed gpt-4o-mini's price for gpt-x).
    expect(log).toMatchObject({ model_name: 'gpt-4o-mini', prompt_tokens: 2, completion_tokens: 5 })
    expect(log.content).toContain('model ratio 0.075,')
    expect(log.content).toContain('requested as gpt-x, mapped by the channel')
  })

  it("forces the channel's system prompt: prepended, or replacing the client's", async () => {
    await client.chat.completions.create({
      model: 'gpt-4-turbo',
      messages: [{ role: 'user', content: 'ahoy' }],
    })
    expect(lastUpstream().json?.messages).toEqual([
      { role: 'system', content: 'You are a pirate.' },
      { role: 'user', content: 'ahoy' },
    ])
    await client.chat.completions.create({
      model: 'gpt-4-turbo',
      messages: [
        { role: 'system', content: 'You are a poet.' },
        { role: 'user', content: 'ahoy' },
      ],
    })
    expect(lastUpstream().json?.messages).toEqual([
      { role: 'system', content: 'You are a pirate.' },
      { role: 'user', content: 'ahoy' },
    ])
    const logs = await fixture.waitForLogs({ model: 'gpt-4-turbo' }, 2)
    expect(logs).toHaveLength(2)
    expect(logs.every((log) => Boolean(log.system_prompt_reset))).toBe(true)
  })

  it("counts the channel's forced system prompt when it counts a prompt itself", async () => {
    // Before, the local count read the client's messages only: the forced prompt went unbilled.
    const messages = [{ role: 'user' as const, content: 'ahoy' }]
    await client.chat.completions.create({ model: LOCAL_PIRATE, messages })
    await client.chat.completions.create({ model: LOCAL_PLAIN, messages })
    const [pirate] = await fixture.waitForLogs({ model: LOCAL_PIRATE }, 1)
    const [plain] = await fixture.waitForLogs({ model: LOCAL_PLAIN }, 1)
    // 40 × "Arr! " is about 80 tokens, plus the system message's own.
    expect(pirate.prompt_tokens - plain.prompt_tokens).toBeGreaterThanOrEqual(80)
  })
})
