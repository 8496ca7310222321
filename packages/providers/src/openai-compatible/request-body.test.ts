import { describe, expect, it } from 'vitest'
import type { RelayRequest, UpstreamRequest } from '../adaptor.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { openAiCompatibleAdaptor } from './adaptor.ts'

const channel = { type: 1, key: 'k' }
const build = (request: RelayRequest): UpstreamRequest => {
  const built = openAiCompatibleAdaptor.buildRequest(request, channel)
  if (built.kind !== 'request') throw new Error(built.message)
  return built
}

describe('request body', () => {
  it('passes the original bytes through, unknown fields and formatting included', () => {
    const raw = Buffer.from('{ "model": "gpt-4o", "messages": [], "brand_new_field": {"x": 1} }')
    const request = { ...jsonRelayRequest('chat', JSON.parse(raw.toString())), body: raw }
    const built = build(request)
    expect(built.body).toBe(raw)
    expect(built.bodyRewritten).toBe(false)
  })

  it('rewrites only the model when the channel maps it, keeping unknown fields', () => {
    const request = jsonRelayRequest(
      'chat',
      { model: 'gpt-4o', messages: [], brand_new_field: 1 },
      { mappedModel: 'gpt-4o-2024-08-06' },
    )
    const body = JSON.parse(String(build(request).body))
    expect(body).toEqual({ model: 'gpt-4o-2024-08-06', messages: [], brand_new_field: 1 })
  })

  it('labels a body it read as JSON as JSON, whatever the client called it', () => {
    const raw = Buffer.from('{"model":"tts-1","input":"hi","voice":"alloy"}')
    const request = {
      ...jsonRelayRequest('audio-speech', JSON.parse(raw.toString())),
      body: raw,
      contentType: 'application/x-www-form-urlencoded',
    }
    const built = build(request)
    expect(built.body).toBe(raw)
    expect(built.headers['Content-Type']).toBe('application/json')
  })

  it('keeps the bytes of every member it does not change, numbers beyond a double included', () => {
    // Re-serialised, the seed reached the upstream as 9007199254740992 and 2.50 as 2.5.
    const raw = Buffer.from(
      '{"model":"alias","seed":9007199254740993,"temperature":2.50,"stream":true,"stream_options":{"include_usage":false}}',
    )
    const request = {
      ...jsonRelayRequest('chat', JSON.parse(raw.toString()), { mappedModel: 'gpt-4o' }),
      body: raw,
      systemPrompt: 'Be brief.',
    }
    expect(String(build(request).body)).toBe(
      '{"messages":[{"role":"system","content":"Be brief."}],"model":"gpt-4o","seed":9007199254740993,"temperature":2.50,"stream":true,"stream_options":{"include_usage":true}}',
    )
  })

  it('adds include_usage to streams whose client did not ask, and marks the usage chunk for dropping', () => {
    const request = jsonRelayRequest('chat', { model: 'm', stream: true, stream_options: { other: 1 } })
    const built = build(request)
    expect(JSON.parse(String(built.body)).stream_options).toEqual({ other: 1, include_usage: true })
    expect(built.dropUsageChunk).toBe(true)
  })

  it('adds include_usage to a stream without stream_options by splicing it into the client bytes', () => {
    const raw = Buffer.from(' {\n "model": "m", "stream": true, "n": 1.0, "brand_new": {"x": [1, 2]} }')
    const request = { ...jsonRelayRequest('chat', JSON.parse(raw.toString())), body: raw }
    const built = build(request)
    expect(String(built.body)).toBe(
      ' {"stream_options":{"include_usage":true},\n "model": "m", "stream": true, "n": 1.0, "brand_new": {"x": [1, 2]} }',
    )
    expect(JSON.parse(String(built.body))).toEqual({
      ...JSON.parse(raw.toString()),
      stream_options: { include_usage: true },
    })
    expect(built.dropUsageChunk).toBe(true)
  })

  it('leaves a stream alone when the client asked for usage itself', () => {
    const request = jsonRelayRequest('chat', {
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
    })
    const built = build(request)
    expect(built.body).toBe(request.body)
    expect(built.dropUsageChunk).toBe(false)
  })

  it('forces the system prompt: replaces the first system message or prepends one', () => {
    const replace = jsonRelayRequest(
      'chat',
      {
        model: 'm',
        messages: [
          { role: 'system', content: 'old', name: 'x' },
          { role: 'user', content: 'hi' },
        ],
      },
      { systemPrompt: 'new' },
    )
    expect(JSON.parse(String(build(replace).body)).messages).toEqual([
      { role: 'system', content: 'new', name: 'x' },
      { role: 'user', content: 'hi' },
    ])
    const prepend = jsonRelayRequest(
      'chat',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      {
        systemPrompt: 'new',
      },
    )
    expect(JSON.parse(String(build(prepend).body)).messages[0]).toEqual({ role: 'system', content: 'new' })
  })

  it('applies model mapping inside multipart audio uploads without touching the file', () => {
    const boundary = '----form7'
    const file = Buffer.from([0, 1, 2, 255, 13, 10, 45, 45])
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n`),
      Buffer.from(`--${boundary}--\r\n`),
    ])
    const request: RelayRequest = {
      mode: 'audio-transcription',
      path: '/v1/audio/transcriptions',
      body,
      json: undefined,
      requestedModel: 'whisper-1',
      mappedModel: 'whisper-large-v3',
      stream: false,
      clientWantsUsage: false,
      contentType: `multipart/form-data; boundary=${boundary}`,
    }
    const built = build(request)
    const sent = built.body as Buffer
    expect(sent.includes(file)).toBe(true)
    expect(sent.toString('latin1')).toContain('name="model"\r\n\r\nwhisper-large-v3\r\n--')
    expect(built.headers['Content-Type']).toBe(request.contentType)
    const unmapped = build({ ...request, mappedModel: 'whisper-1' })
    expect(unmapped.body).toBe(body)
  })
})
