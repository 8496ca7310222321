/**
 * DeepL's own behaviour: the target language read from the model, the context sent, characters
 * billed, the stream built from the JSON answer and DeepL's statuses. The shared suite's cases
 * that apply run in conformance.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { getAdaptor } from '../registry.ts'
import { chatCompletionOf } from '../testing/conformance-replay.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { schemaIssues } from '../testing/openai-schema.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { deeplAdaptor, targetLanguage } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const channel = { type: 38, key: 'deepl-auth-key:fx' }
const ask = (messages: unknown[], extra: Record<string, unknown> = {}) =>
  jsonRelayRequest('chat', { model: 'deepl-de', messages, ...extra }, { receivedAt: 1_700_000_000 })
const hello = [{ role: 'user', content: 'Hello, world!' }]
const sent = (request: ReturnType<typeof ask>) => {
  const built = deeplAdaptor.buildRequest(request, channel)
  if (built.kind !== 'request') throw new Error(built.message)
  return { built, body: JSON.parse(String(built.body)) }
}
const reply = (name: string, status = 200) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: fixture(name),
})

describe('DeepL requests', () => {
  it('is the adaptor of type 38', () => expect(getAdaptor(38)).toBe(deeplAdaptor))

  it('reads the target language from the model as one-api does', () => {
    expect(targetLanguage('deepl-zh')).toBe('ZH')
    expect(targetLanguage('deepl-en-us')).toBe('EN-US')
    expect(targetLanguage('deepl')).toBe('ZH')
  })

  it('translates the last message with the channel key in DeepL-Auth-Key', () => {
    const { built, body } = sent(ask(hello))
    expect(built.url).toBe('https://api-free.deepl.com/v2/translate')
    expect(built.headers.Authorization).toBe('DeepL-Auth-Key deepl-auth-key:fx')
    expect(body).toEqual({ text: ['Hello, world!'], target_lang: 'DE' })
  })

  it('sends the system message and earlier turns as context, in order', () => {
    const { body } = sent(
      ask([
        { role: 'system', content: 'A greeting in a letter.' },
        { role: 'user', content: 'Dear Anna,' },
        { role: 'user', content: 'Hello, world!' },
      ]),
    )
    expect(body).toEqual({
      text: ['Hello, world!'],
      target_lang: 'DE',
      context: 'A greeting in a letter.\nDear Anna,',
    })
  })

  it('serves chat only', () => {
    const embeddings = jsonRelayRequest('embeddings', { model: 'deepl-de', input: 'x' })
    expect(deeplAdaptor.buildRequest(embeddings, channel)).toMatchObject({ kind: 'error', status: 400 })
  })
})

describe('DeepL answers', () => {
  it('returns the translation as a chat completion, billing the characters translated', () => {
    const parsed = deeplAdaptor.parseResponse(reply('translate.json'), ask(hello))
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    const completion = chatCompletionOf(parsed) as { choices: { message: { content: string } }[] }
    expect(completion.choices[0]!.message.content).toBe('Hallo, Welt!')
    expect(parsed.usage).toMatchObject({ promptTokens: 13, completionTokens: 0, totalTokens: 13 })
  })

  it('counts characters, not bytes', () => {
    const parsed = deeplAdaptor.parseResponse(
      reply('translate.json'),
      ask([{ role: 'user', content: '你好，世界' }]),
    )
    expect(parsed.kind === 'response' && parsed.usage?.promptTokens).toBe(5)
  })

  it('answers a stream request with one chunk, the usage asked for and [DONE]', () => {
    const request = ask(hello, { stream: true, stream_options: { include_usage: true } })
    const parsed = deeplAdaptor.parseResponse(reply('translate.json'), request)
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(parsed.contentType).toBe('text/event-stream')
    const events = parsed.body
      .toString()
      .split('\n\n')
      .filter(Boolean)
      .map((event) => event.replace(/^data: /, ''))
    expect(events.at(-1)).toBe('[DONE]')
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event))
    for (const chunk of chunks) expect(schemaIssues('CreateChatCompletionStreamResponse', chunk)).toEqual([])
    expect(chunks[0].choices[0]).toMatchObject({ delta: { content: 'Hallo, Welt!' }, finish_reason: 'stop' })
    expect(chunks[1]).toMatchObject({ choices: [], usage: { prompt_tokens: 13, total_tokens: 13 } })
  })

  it.each([
    [403, 'error-403.json', { status: 401, disableChannel: true }],
    [456, 'error-456.json', { disableChannel: true }],
    [429, 'error-456.json', { status: 429, retryable: true, disableChannel: false }],
    [500, 'error-456.json', { status: 500, retryable: true, disableChannel: false }],
  ])('maps status %s for retry and disabling', (status, name, expected) => {
    expect(deeplAdaptor.parseResponse(reply(name, status), ask(hello))).toMatchObject({
      kind: 'error',
      ...expected,
    })
  })
})
