/**
 * Xunfei Spark v1 (type 18) against its documented frames and signing scheme. Spark's v1 chat
 * takes text turns only (no images), so those cases of the shared conformance suite do not apply;
 * streams are replayed in pieces with the suite's helpers. Function calling: functions.test.ts.
 */
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { getAdaptor } from '../registry.ts'
import {
  assembled,
  build,
  chatCompletionOf,
  failed,
  parsed,
  replayStream,
} from '../testing/conformance-replay.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { xunfeiAdaptor } from './adaptor.ts'
import { sparkDomain, sparkPath, sparkVersion } from './versions.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const channel = { type: 18, key: 'app123|secret456|key789' }
// Fri, 05 May 2023 10:43:39 GMT, the date of Xunfei's signing example.
const receivedAt = 1683283419
const chat = (model: string, extra: Record<string, unknown> = {}) =>
  jsonRelayRequest(
    'chat',
    { model, messages: [{ role: 'user', content: '你是谁' }], ...extra },
    { receivedAt },
  )

describe('Xunfei Spark requests', () => {
  it('serves channel type 18', () => expect(getAdaptor(18)).toBe(xunfeiAdaptor))

  it('signs the WebSocket URL with HMAC-SHA256 over host, date and request line', () => {
    const built = build(xunfeiAdaptor, chat('Spark-Max'), channel)
    const url = new URL(built.url)
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('wss://spark-api.xf-yun.com/v3.5/chat')
    expect(url.searchParams.get('date')).toBe('Fri, 05 May 2023 10:43:39 GMT')
    expect(url.searchParams.get('host')).toBe('spark-api.xf-yun.com')
    const signature = createHmac('sha256', 'secret456')
      .update('host: spark-api.xf-yun.com\ndate: Fri, 05 May 2023 10:43:39 GMT\nGET /v3.5/chat HTTP/1.1')
      .digest('base64')
    expect(Buffer.from(url.searchParams.get('authorization')!, 'base64').toString()).toBe(
      `api_key="key789", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`,
    )
    expect(built.webSocket).toBeDefined()
    expect(JSON.parse(String(built.body))).toEqual({
      header: { app_id: 'app123' },
      parameter: { chat: { domain: 'generalv3.5' } },
      payload: { message: { text: [{ role: 'user', content: '你是谁' }] } },
    })
  })

  it('takes the version from the model name, the config, or v1.1, as one-api does', () => {
    expect(sparkVersion('Spark-Lite', channel)).toBe('v1.1')
    expect(sparkVersion('Spark-Pro-128K', channel)).toBe('v3.1-128K')
    expect(sparkVersion('SparkDesk-v2.1', channel)).toBe('v2.1')
    expect(sparkVersion('SparkDesk', { ...channel, config: { api_version: 'v3.1' } })).toBe('v3.1')
    expect(sparkVersion('SparkDesk', { ...channel, other: 'v2.1' })).toBe('v2.1')
    expect(sparkVersion('SparkDesk', channel)).toBe('v1.1')
    expect([sparkDomain('v1.1'), sparkDomain('v3.1-128K'), sparkDomain('v4.0'), sparkDomain('v9.9')]).toEqual(
      ['lite', 'pro-128k', '4.0Ultra', 'generalv9.9'],
    )
    expect([sparkPath('v4.0'), sparkPath('v3.5-32K')]).toEqual(['/v4.0/chat', '/chat/max-32k'])
    const local = build(xunfeiAdaptor, chat('Spark-4.0-Ultra'), {
      ...channel,
      baseUrl: 'http://127.0.0.1:4000/',
    })
    expect(local.url.startsWith('ws://127.0.0.1:4000/v4.0/chat?')).toBe(true)
  })

  it('refuses a key that is not APPID|APISecret|APIKey, and non-chat requests', () => {
    expect(xunfeiAdaptor.buildRequest(chat('Spark-Max'), { type: 18, key: 'only-one' })).toMatchObject({
      kind: 'error',
      code: 'invalid_channel_key',
    })
    const embeddings = jsonRelayRequest('embeddings', { model: 'Spark-Max', input: 'x' })
    expect(xunfeiAdaptor.buildRequest(embeddings, channel)).toMatchObject({ kind: 'error', status: 400 })
  })
})

describe('Xunfei Spark answers', () => {
  const frames = fixture('chat-stream.ndjson')
  const text = '你好，我是科大讯飞研发的认知智能大模型，很高兴为你服务。'
  const gathered = (body: Buffer, status = 200) => ({ status, headers: {}, body })

  it('gathers the frames into one chat completion with the last frame usage', () => {
    const result = parsed(xunfeiAdaptor.parseResponse(gathered(frames), chat('Spark-Max')))
    // biome-ignore lint/suspicious/noExplicitAny: a parsed answer, read field by field
    const completion = chatCompletionOf(result) as any
    expect(completion.choices[0].message.content).toBe(text)
    expect(completion.id).toBe('cht000cb087@dx18793cd421fb894542')
    expect(result.usage).toMatchObject({ promptTokens: 5, completionTokens: 25, totalTokens: 30 })
  })

  it('streams the frames as OpenAI chunks in any split, with the usage chunk when asked', () => {
    const request = chat('Spark-Max', { stream: true, stream_options: { include_usage: true } })
    for (const size of [1, 7, 64, 100_000]) {
      const replay = replayStream(xunfeiAdaptor, channel, request, frames, size)
      expect(assembled(replay.chunks)).toMatchObject({ text, finishReason: 'stop' })
      expect(replay.events.at(-1)).toBe('[DONE]')
      expect(replay.chunks.at(-1)!.usage).toMatchObject({ total_tokens: 30 })
      expect(replay.transformer.upstreamCompleted).toBe(true)
    }
    const cut = frames.subarray(0, frames.lastIndexOf('{"header"'))
    const replay = replayStream(xunfeiAdaptor, channel, chat('Spark-Max', { stream: true }), cut, 5, false)
    expect(replay.events).not.toContain('[DONE]')
    expect(replay.transformer.upstreamCompleted).toBe(false)
  })

  it('maps error frames and a refused handshake', () => {
    const request = chat('Spark-Max')
    expect(
      failed(xunfeiAdaptor.parseResponse(gathered(fixture('error-10013.ndjson')), request)),
    ).toMatchObject({
      status: 400,
      code: 'content_filter',
      retryable: false,
    })
    expect(
      failed(xunfeiAdaptor.parseResponse(gathered(fixture('error-11200.ndjson')), request)),
    ).toMatchObject({
      status: 401,
      disableChannel: true,
    })
    expect(
      failed(xunfeiAdaptor.parseResponse(gathered(fixture('handshake-401.json'), 401), request)),
    ).toMatchObject({
      status: 401,
      disableChannel: true,
      message: 'HMAC signature does not match',
    })
    expect(failed(xunfeiAdaptor.parseResponse(gathered(Buffer.from('')), request))).toMatchObject({
      code: 'xunfei_empty_response_detected',
      retryable: true,
    })
  })
})
