/**
 * Replicate channels (type 46) through the whole gateway, driven by the official `openai` client
 * against the mock's Replicate side, which checks the key: a language model answered by the
 * waiting create call or streamed from the prediction's stream URL, image models finished at once
 * or polled until they succeed, with the bill and the log checked.
 */

import { type MockUpstream, startMockUpstream } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const REPLICATE = 46
const KEY = 'r8_e2e_token'
const TEXT = 'meta/llama-e2e'
const IMAGE = 'black-forest-labs/flux-e2e'
const SLOW_IMAGE = 'black-forest-labs/slow-flux-e2e'
const REFUSED = 'meta/llama-e2e-refused'
const RATIO = 10
// "user: one two three four" is five words: the mock's input_token_count.
const ask = { model: TEXT, messages: [{ role: 'user' as const, content: 'one two three four' }] }

describe.each(testDialects())('Replicate channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let replicate: MockUpstream
  let client: OpenAI
  const calls = (path: string) => replicate.requests.filter((call) => call.path.startsWith(path))

  beforeAll(async () => {
    replicate = await startMockUpstream({ apiKeys: [KEY] })
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({
      type: REPLICATE,
      key: KEY,
      base_url: replicate.url,
      models: [TEXT, IMAGE, SLOW_IMAGE],
    })
    await fixture.addChannel({ type: REPLICATE, key: 'r8_wrong', base_url: replicate.url, models: [REFUSED] })
    await fixture.setPrices(
      { [TEXT]: RATIO, [IMAGE]: RATIO, [SLOW_IMAGE]: RATIO, [REFUSED]: RATIO },
      { [TEXT]: 1 },
    )
    const token = await fixture.createToken({ remain_quota: 10_000_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
    await replicate?.close()
  })

  it('answers chat from a prediction finished within the create call, and bills its token counts', async () => {
    const { data, response } = await client.chat.completions.create(ask).withResponse()
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(data.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 })
    const create = calls('/v1/models/meta/llama-e2e/predictions').at(-1)!
    expect(create.headers).toMatchObject({ authorization: `Bearer ${KEY}`, prefer: 'wait=30' })
    expect(create.json).toMatchObject({ input: { prompt: 'user: one two three four\n', max_tokens: 500 } })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: TEXT, prompt_tokens: 5, completion_tokens: 5, quota: 10 * RATIO })
  })

  it('streams chat from the prediction stream URL, and bills the counted text', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask, stream: true })
      .withResponse()
    const { pieces, finish } = await readChatStream(stream)
    expect(pieces).toEqual(['Hello', ' from', ' the', ' mock', ' upstream'])
    expect(finish).toBe('stop')
    expect(calls('/replicate-stream/')).toHaveLength(1)
    expect(calls('/replicate-stream/')[0]!.headers.authorization).toBeUndefined()
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log.is_stream).toBe(true)
    expect(log.completion_tokens).toBeGreaterThan(0)
    expect(log.quota).toBeGreaterThan(0)
  })

  it('answers images finished within the create call with their URLs, billed per image', async () => {
    const { data, response } = await client.images
      .generate({ model: IMAGE, prompt: 'a cake', n: 2 })
      .withResponse()
    expect(data.data?.map((item) => item.url)).toEqual([
      expect.stringMatching(/out-0\.webp$/),
      expect.stringMatching(/out-1\.webp$/),
    ])
    expect(calls('/v1/predictions/')).toHaveLength(0)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log.quota).toBe(2 * RATIO * 1000)
  })

  it('polls a slow image prediction until it succeeded', async () => {
    const answer = await client.images.generate({ model: SLOW_IMAGE, prompt: 'a slow cake' })
    expect(answer.data).toHaveLength(1)
    const polls = calls('/v1/predictions/')
    expect(polls).toHaveLength(2)
    expect(polls[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('is refused by Replicate with a wrong token, and the client is told the channel is unavailable', async () => {
    const failure = await relayFailure(client.chat.completions.create({ ...ask, model: REFUSED }))
    expect(failure.status).toBe(503)
    expect(failure.error.code).toBe('channel_unavailable')
  })
})
