/**
 * Tencent Hunyuan channels (type 23) through the whole gateway with the official `openai` client:
 * the mock upstream recomputes the TC3-HMAC-SHA256 signature as Tencent Cloud does and refuses a
 * wrong SecretKey; chat, stream and tools are answered in OpenAI's form, billed and logged from
 * Hunyuan's usage.
 */

import { TENCENT_KEYS } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const TENCENT = 23
const CHAT = 'hunyuan-e2e'
const WRONG = 'hunyuan-wrong-secret'
const RATIO = 3
const ask = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'one two three four' }],
})
const [KEY] = TENCENT_KEYS as [string]

describe.each(testDialects())('Tencent Hunyuan channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  const hunyuanCalls = () => fixture.mock.requests.filter((call) => call.headers['x-tc-action'] !== undefined)

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({ type: TENCENT, key: KEY, models: [CHAT] })
    const [appId, secretId] = KEY.split('|')
    await fixture.addChannel({
      type: TENCENT,
      key: `${appId}|${secretId}|not-the-secret-key`,
      models: [WRONG],
    })
    await fixture.setPrices({ [CHAT]: RATIO, [WRONG]: RATIO }, { [CHAT]: 1, [WRONG]: 1 })
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('answers a chat signed with TC3-HMAC-SHA256, and bills and logs its usage', async () => {
    const before = await fixture.tokenQuota(token.id)
    const { data, response } = await client.chat.completions.create(ask(CHAT)).withResponse()
    expect(data.object).toBe('chat.completion')
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 })
    const call = hunyuanCalls().at(-1)!
    expect(call.path).toBe('/')
    expect(call.headers).toMatchObject({ 'x-tc-action': 'ChatCompletions', 'x-tc-version': '2023-09-01' })
    expect(call.json).toMatchObject({
      Model: CHAT,
      Messages: [{ Role: 'user', Content: 'one two three four' }],
    })
    expect(String(call.headers.authorization)).not.toContain('mockTencentSecretKey')
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: CHAT, prompt_tokens: 4, completion_tokens: 5, quota: 9 * RATIO })
    const after = await fixture.tokenQuota(token.id)
    expect(Number(before.remain_quota) - Number(after.remain_quota)).toBe(9 * RATIO)
  })

  it('streams the answer (Choices/Delta read), with the usage chunk the client asked for, and logs it', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(CHAT), stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { text, usage, finish } = await readChatStream(stream)
    expect({ text, finish }).toEqual({ text: 'Hello from the mock upstream', finish: 'stop' })
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 9 * RATIO })
  })

  it('sends tools in Hunyuan form and returns the tool call', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
    ]
    const completion = await client.chat.completions.create({ ...ask(CHAT), tools })
    const call = completion.choices[0]!.message.tool_calls![0]!
    expect(call.type === 'function' && call.function).toEqual({ name: 'lookup', arguments: '{"mock":true}' })
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls')
    expect(hunyuanCalls().at(-1)!.json).toMatchObject({
      Tools: [
        { Type: 'function', Function: { Name: 'lookup', Parameters: '{"type":"object","properties":{}}' } },
      ],
    })
  })

  it('is refused by Tencent Cloud when signed with the wrong SecretKey, and bills nothing', async () => {
    const before = await fixture.tokenQuota(token.id)
    const failure = await relayFailure(client.chat.completions.create(ask(WRONG)))
    expect(failure.status).toBe(503)
    expect(failure.error.code).toBe('channel_unavailable')
    expect(failure.error.message).not.toContain('not-the-secret-key')
    expect((await fixture.tokenQuota(token.id)).remain_quota).toBe(before.remain_quota)
    expect(await fixture.consumeLogs({ model: WRONG })).toEqual([])
  })
})
