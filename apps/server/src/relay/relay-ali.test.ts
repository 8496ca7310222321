/**
 * Ali DashScope channels (type 17) through the whole gateway, driven by the official `openai`
 * client against the mock's DashScope side, which checks the key: chat (JSON and stream),
 * embeddings, and images generated as a task the gateway polls until it is done (or failed, or
 * the client left), with the bill and the log checked.
 */
import { type MockUpstream, startMockUpstream } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { eventually } from '../testing/eventually.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const ALI = 17
const KEY = 'sk-dashscope-e2e'
const CHAT = 'qwen-e2e'
const EMBEDDING = 'text-embedding-e2e'
const IMAGE = 'wanx-e2e'
const REFUSED = 'qwen-e2e-refused'
const RATIO = 10
const PLUGIN = '{"pdf_extracter":{}}'
const ask = { model: CHAT, messages: [{ role: 'user' as const, content: 'one two three four' }] }

describe.each(testDialects())('Ali DashScope channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let dashScope: MockUpstream
  let client: OpenAI
  let token: { id: number; key: string }
  const calls = (path: string) => dashScope.requests.filter((call) => call.path.startsWith(path))

  beforeAll(async () => {
    dashScope = await startMockUpstream({ apiKeys: [KEY] })
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({
      type: ALI,
      key: KEY,
      base_url: dashScope.url,
      models: [CHAT, EMBEDDING, IMAGE],
      config: { plugin: PLUGIN },
    })
    await fixture.addChannel({ type: ALI, key: 'sk-wrong', base_url: dashScope.url, models: [REFUSED] })
    await fixture.setPrices(
      { [CHAT]: RATIO, [EMBEDDING]: RATIO, [IMAGE]: RATIO, [REFUSED]: RATIO },
      { [CHAT]: 1 },
    )
    token = await fixture.createToken({ remain_quota: 10_000_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
    await dashScope?.close()
  })

  it('answers chat in OpenAI format from DashScope text generation, with the plugin header, and bills the usage', async () => {
    const { data, response } = await client.chat.completions.create(ask).withResponse()
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 })
    const upstream = calls('/api/v1/services/aigc/text-generation/generation').at(-1)!
    expect(upstream.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(upstream.headers['x-dashscope-plugin']).toBe(PLUGIN)
    expect(upstream.json).toMatchObject({ model: CHAT, input: { messages: ask.messages } })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: CHAT, prompt_tokens: 4, completion_tokens: 5, quota: 9 * RATIO })
  })

  it('streams chat from DashScope events, with the usage chunk the client asked for', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask, stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { pieces, usage } = await readChatStream(stream)
    expect(pieces).toEqual(['Hello', ' from', ' the', ' mock', ' upstream'])
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 })
    const upstream = calls('/api/v1/services/aigc/text-generation/generation').at(-1)!
    expect(upstream.headers['x-dashscope-sse']).toBe('enable')
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 9 * RATIO })
  })

  it('answers embeddings in OpenAI format and bills their tokens', async () => {
    const { data, response } = await client.embeddings
      .create({ model: EMBEDDING, input: ['one two', 'three'] })
      .withResponse()
    expect(data.data.map((item) => item.index)).toEqual([0, 1])
    expect(data.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ prompt_tokens: 3, quota: 3 * RATIO })
  })

  it('submits an image task, polls it until it SUCCEEDED, answers with its URLs and bills each image', async () => {
    const before = calls('/api/v1/tasks/').length
    const { data, response } = await client.images
      .generate({ model: IMAGE, prompt: 'a cat', n: 2, size: '1024x1024' })
      .withResponse()
    expect(data.data).toHaveLength(2)
    expect(data.data![0]!.url).toMatch(/^https:\/\/mock-upstream\.invalid\/dashscope\/.+\/0\.png$/)
    const submit = calls('/api/v1/services/aigc/text2image/image-synthesis').at(-1)!
    expect(submit.headers['x-dashscope-async']).toBe('enable')
    expect(submit.json).toMatchObject({ model: IMAGE, parameters: { n: 2, size: '1024*1024' } })
    // RUNNING, then SUCCEEDED.
    expect(calls('/api/v1/tasks/').length - before).toBe(2)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: IMAGE, quota: 2 * RATIO * 1000 })
  })

  it('fails a FAILED task with its reason and bills nothing', async () => {
    const quota = await fixture.tokenQuota(token.id)
    const failure = await relayFailure(
      client.images.generate({ model: IMAGE, prompt: 'something forbidden' }),
    )
    expect(failure.status).toBe(400)
    expect(failure.error.message).toContain('Input data may contain inappropriate content.')
    expect(await fixture.tokenQuota(token.id)).toEqual(quota)
  })

  it('stops polling when the client goes away', async () => {
    const before = calls('/api/v1/tasks/').length
    const submits = calls('/api/v1/services/aigc/text2image/image-synthesis').length
    const abort = new AbortController()
    const call = client.images.generate({ model: IMAGE, prompt: 'a dog' }, { signal: abort.signal })
    await eventually(() => calls('/api/v1/services/aigc/text2image/image-synthesis').length === submits + 1)
    abort.abort()
    await expect(call).rejects.toThrow()
    // The first poll would have come 2 s after the submit.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    expect(calls('/api/v1/tasks/').length).toBe(before)
  })

  it('is refused by DashScope with a wrong key, and the client is told the channel is unavailable', async () => {
    const failure = await relayFailure(client.chat.completions.create({ ...ask, model: REFUSED }))
    expect(failure.status).toBe(503)
    expect(failure.error.code).toBe('channel_unavailable')
    expect(dashScope.requests.at(-1)!.headers.authorization).toBe('Bearer sk-wrong')
  })
})
