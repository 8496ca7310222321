/**
 * AI Proxy Library channels (type 21) through the whole gateway with the official `openai` client:
 * the question put to the library of the channel's config, the answer (with its documents) as a
 * chat completion or a stream, billed by a local count since the library reports no usage; the
 * mock refuses a wrong key and a library the key may not ask.
 */
import { AIPROXY_LIBRARY_KEYS } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const LIBRARY = 21
const MODEL = 'library-e2e'
const WRONG = 'library-wrong-key'
const [[KEY, LIBRARY_ID]] = Object.entries(AIPROXY_LIBRARY_KEYS) as [[string, string]]
const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'what is the mock' }] })
const ANSWER = 'Hello from the mock upstream\n\n参考文档：\n- [Mock document](https://docs.example.com/mock)'

describe.each(testDialects())('AI Proxy Library channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  const libraryCalls = () => fixture.mock.requests.filter((call) => call.path === '/api/library/ask')

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({
      type: LIBRARY,
      key: KEY,
      models: [MODEL],
      config: JSON.stringify({ library_id: LIBRARY_ID }),
    })
    await fixture.addChannel({
      type: LIBRARY,
      key: 'not-a-key',
      models: [WRONG],
      config: JSON.stringify({ library_id: LIBRARY_ID }),
    })
    await fixture.setPrices({ [MODEL]: 1, [WRONG]: 1 }, { [MODEL]: 1, [WRONG]: 1 })
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('asks the configured library, answers with the documents, and bills a local count', async () => {
    const before = await fixture.tokenQuota(token.id)
    const { data, response } = await client.chat.completions.create(ask(MODEL)).withResponse()
    expect(data.choices[0]!.message.content).toBe(ANSWER)
    expect(libraryCalls().at(-1)!.json).toEqual({
      model: MODEL,
      query: 'what is the mock',
      libraryId: LIBRARY_ID,
      stream: false,
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log.prompt_tokens).toBeGreaterThan(0)
    expect(log.completion_tokens).toBeGreaterThan(0)
    const after = await fixture.tokenQuota(token.id)
    expect(Number(before.remain_quota) - Number(after.remain_quota)).toBe(log.quota)
    expect(log.quota).toBe(log.prompt_tokens + log.completion_tokens)
  })

  it('streams the answer, documents last, and logs the stream', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(MODEL), stream: true })
      .withResponse()
    const { text } = await readChatStream(stream)
    expect(text).toBe(ANSWER)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log.is_stream).toBe(true)
    expect(log.completion_tokens).toBeGreaterThan(0)
  })

  it('is refused with a wrong key, and bills nothing', async () => {
    const before = await fixture.tokenQuota(token.id)
    const failure = await relayFailure(client.chat.completions.create(ask(WRONG)))
    expect(failure.status).toBe(503)
    expect((await fixture.tokenQuota(token.id)).remain_quota).toBe(before.remain_quota)
    expect(await fixture.consumeLogs({ model: WRONG })).toEqual([])
  })
})
