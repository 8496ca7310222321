/**
 * DeepL channels (type 38) through the whole gateway with the official `openai` client: a chat
 * model per target language, the translation as the answer (one chunk when streamed), billed per
 * character translated; the mock refuses a wrong key as DeepL does (403).
 */
import { DEEPL_KEYS } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const DEEPL = 38
const GERMAN = 'deepl-de'
const WRONG = 'deepl-fr'
const RATIO = 1
const TEXT = 'Hello, world!'
const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: TEXT }] })

describe.each(testDialects())('DeepL channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  const translateCalls = () => fixture.mock.requests.filter((call) => call.path === '/v2/translate')

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({ type: DEEPL, key: DEEPL_KEYS[0], models: [GERMAN] })
    await fixture.addChannel({ type: DEEPL, key: 'not-a-deepl-key:fx', models: [WRONG] })
    await fixture.setPrices({ [GERMAN]: RATIO, [WRONG]: RATIO }, { [GERMAN]: 1, [WRONG]: 1 })
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('translates into the model language, billing the characters translated', async () => {
    const before = await fixture.tokenQuota(token.id)
    const { data, response } = await client.chat.completions.create(ask(GERMAN)).withResponse()
    expect(data.choices[0]!.message.content).toBe(`[DE] ${TEXT}`)
    expect(data.usage).toMatchObject({ prompt_tokens: TEXT.length, completion_tokens: 0 })
    expect(translateCalls().at(-1)!.json).toEqual({ text: [TEXT], target_lang: 'DE' })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({
      model_name: GERMAN,
      prompt_tokens: 13,
      completion_tokens: 0,
      quota: 13 * RATIO,
    })
    const after = await fixture.tokenQuota(token.id)
    expect(Number(before.remain_quota) - Number(after.remain_quota)).toBe(13 * RATIO)
  })

  it('answers a stream request with the translation in one chunk, billed and logged', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(GERMAN), stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { pieces: contents, usage } = await readChatStream(stream)
    expect(contents).toEqual([`[DE] ${TEXT}`])
    expect(usage).toMatchObject({ prompt_tokens: 13 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    // The upstream answered in one piece: the log says the answer was not streamed.
    expect(log).toMatchObject({ model_name: GERMAN, prompt_tokens: 13, quota: 13 * RATIO })
  })

  it('is refused by DeepL with a wrong key, and bills nothing', async () => {
    const before = await fixture.tokenQuota(token.id)
    const failure = await relayFailure(client.chat.completions.create(ask(WRONG)))
    expect(failure.status).toBe(503)
    expect(failure.error.message).not.toContain('not-a-deepl-key')
    expect((await fixture.tokenQuota(token.id)).remain_quota).toBe(before.remain_quota)
    expect(await fixture.consumeLogs({ model: WRONG })).toEqual([])
  })
})
