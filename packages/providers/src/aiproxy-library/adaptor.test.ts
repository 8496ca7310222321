/**
 * The library's own behaviour: the library id from the config or the legacy column, the documents
 * appended as links, and its errors. The shared suite's cases that apply (the library reports no
 * usage) run in conformance.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { getAdaptor } from '../registry.ts'
import { assembled, chatCompletionOf, replayStream } from '../testing/conformance-replay.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { aiProxyLibraryAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: fixture(name),
})
const channel = { type: 21, key: 'ap-library-key', config: { library_id: 'lib-123' } }
const chat = {
  model: 'gpt-3.5-turbo',
  messages: [
    { role: 'user', content: '你好' },
    { role: 'assistant', content: '你好！' },
    { role: 'user', content: '什么是 AI Proxy？' },
  ],
}
const request = (extra: Record<string, unknown> = {}) => jsonRelayRequest('chat', { ...chat, ...extra })
const answer = `AI Proxy 是一个大模型 API 代理平台。\n\n参考文档：\n- [AI Proxy 简介](https://docs.aiproxy.io/intro)`

describe('AI Proxy Library', () => {
  it('is the adaptor of type 21', () => expect(getAdaptor(21)).toBe(aiProxyLibraryAdaptor))

  it('asks the configured library the last question, with the key as Bearer', () => {
    const built = aiProxyLibraryAdaptor.buildRequest(request(), channel)
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe('https://api.aiproxy.io/api/library/ask')
    expect(built.headers.Authorization).toBe('Bearer ap-library-key')
    expect(JSON.parse(String(built.body))).toEqual({
      model: 'gpt-3.5-turbo',
      query: '什么是 AI Proxy？',
      libraryId: 'lib-123',
      stream: false,
    })
  })

  it('takes the library id from the legacy other column, and needs one', () => {
    const legacy = aiProxyLibraryAdaptor.buildRequest(request(), { type: 21, key: 'k', other: 'lib-old' })
    expect(legacy.kind === 'request' && JSON.parse(String(legacy.body)).libraryId).toBe('lib-old')
    expect(aiProxyLibraryAdaptor.buildRequest(request(), { type: 21, key: 'k' })).toMatchObject({
      code: 'channel_config_missing',
    })
  })

  it('returns the answer with its documents as links, for a local count', () => {
    const parsed = aiProxyLibraryAdaptor.parseResponse(reply('ask.json'), request())
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    const completion = chatCompletionOf(parsed) as { choices: { message: { content: string } }[] }
    expect(completion.choices[0]!.message.content).toBe(answer)
    expect(parsed.usage).toBeUndefined()
    expect(parsed.completionText).toBe(answer)
  })

  it('streams the answer in pieces of any size, documents last, one [DONE]', () => {
    for (const size of [1, 7, 64, 100_000]) {
      const replay = replayStream(
        aiProxyLibraryAdaptor,
        channel,
        request({ stream: true }),
        fixture('ask-stream.sse'),
        size,
      )
      expect(replay.events.filter((event) => event === '[DONE]')).toHaveLength(1)
      expect(assembled(replay.chunks)).toMatchObject({ text: answer, finishReason: 'stop' })
      expect(replay.transformer.completionText).toBe(answer)
      expect(replay.transformer.upstreamCompleted).toBe(true)
    }
  })

  it.each([
    ['error-400.json', 400, { status: 400, retryable: false, disableChannel: false }],
    ['error-401.json', 401, { disableChannel: true }],
    ['error-429.json', 429, { status: 429, retryable: true, disableChannel: false }],
    ['error-500.json', 500, { retryable: true, disableChannel: false }],
  ])('maps %s for retry and disabling', (name, status, expected) => {
    expect(aiProxyLibraryAdaptor.parseResponse(reply(name, status), request())).toMatchObject({
      kind: 'error',
      ...expected,
    })
  })
})
