import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from './server.ts'
import { SPEECH_PIECE_BYTES, speechAudio, speechPiece } from './speech.ts'

let mock: MockUpstream
beforeAll(async () => {
  mock = await startMockUpstream()
})
afterAll(() => mock.close())

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(mock.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test', ...headers },
    body: JSON.stringify(body),
  })

const events = (text: string) =>
  text
    .split('\n\n')
    .filter(Boolean)
    .map((event) => event.replace(/^data: /, ''))

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'three words here' }] }

describe('mock upstream over plain HTTP', () => {
  it('answers chat with deterministic usage and echoes the model', async () => {
    const response = await post('/v1/chat/completions', chat)
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.model).toBe('gpt-4o-mini')
    expect(body.choices[0].message.content).toBe('Hello from the mock upstream')
    expect(body.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 })
    expect(mock.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/chat/completions', json: chat })
  })

  it('streams role, content, finish, the usage chunk only when asked, then [DONE]', async () => {
    const plain = events(await (await post('/v1/chat/completions', { ...chat, stream: true })).text())
    expect(plain).toHaveLength(5 + 3)
    expect(plain.at(-1)).toBe('[DONE]')
    expect(plain.join('')).not.toContain('"usage"')
    const withUsage = events(
      await (
        await post('/v1/chat/completions', { ...chat, stream: true, stream_options: { include_usage: true } })
      ).text(),
    )
    const usageChunk = JSON.parse(withUsage.at(-2) as string)
    expect(usageChunk.choices).toEqual([])
    expect(usageChunk.usage.total_tokens).toBe(8)
  })

  it('caps the generated pieces at max_tokens and reports finish_reason length', async () => {
    const body = await (await post('/v1/chat/completions', { ...chat, max_tokens: 2 })).json()
    expect(body.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: 'Hello from' } })
    expect(body.usage.completion_tokens).toBe(2)
  })

  it('answers with a tool call when the request has tools', async () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }]
    const body = await (await post('/v1/chat/completions', { ...chat, tools })).json()
    expect(body.choices[0].finish_reason).toBe('tool_calls')
    expect(body.choices[0].message.tool_calls[0].function).toEqual({
      name: 'get_weather',
      arguments: '{"mock":true}',
    })
  })

  it('accepts paths without /v1, Azure deployment paths and custom provider paths', async () => {
    expect((await post('/chat/completions', chat)).status).toBe(200)
    const azure = await post('/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-10-21', {
      messages: chat.messages,
    })
    expect((await azure.json()).model).toBe('gpt-35-turbo')
    expect((await post('/api/v3/chat/completions', chat)).status).toBe(200)
    const unknown = await post('/v1/nothing', chat)
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.message).toBe('Invalid URL (POST /v1/nothing)')
  })

  it('serves completions, embeddings, moderations, images and models', async () => {
    const completion = await (
      await post('/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'a b' })
    ).json()
    expect(completion).toMatchObject({
      object: 'text_completion',
      usage: { prompt_tokens: 2, completion_tokens: 5 },
    })
    const embeddings = await (
      await post('/v1/embeddings', { model: 'e', input: ['one two', 'three'], dimensions: 4 })
    ).json()
    expect(embeddings.data).toHaveLength(2)
    expect(embeddings.data[1].embedding).toHaveLength(4)
    expect(embeddings.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 })
    const moderation = await (await post('/v1/moderations', { input: ['fine', 'flag-me'] })).json()
    expect(moderation.results.map((result: { flagged: boolean }) => result.flagged)).toEqual([false, true])
    const images = await (
      await post('/v1/images/generations', { prompt: 'cat', n: 2, response_format: 'b64_json' })
    ).json()
    expect(images.data).toHaveLength(2)
    expect(images.data[0].b64_json).toMatch(/^iVBOR/)
    const models = await (await fetch(`${mock.url}/v1/models`)).json()
    expect(models.data.map((model: { id: string }) => model.id)).toContain('gpt-4o-mini')
  })

  it('returns transcriptions in every response_format from a multipart upload', async () => {
    const transcribe = async (format: string) => {
      const form = new FormData()
      form.set('file', new Blob([new Uint8Array([1, 2, 3])]), 'a.mp3')
      form.set('model', 'whisper-1')
      form.set('response_format', format)
      const response = await fetch(`${mock.url}/v1/audio/transcriptions`, { method: 'POST', body: form })
      return { type: response.headers.get('content-type'), text: await response.text() }
    }
    expect(JSON.parse((await transcribe('json')).text)).toEqual({
      text: 'Hello from the mock upstream transcription.',
    })
    expect((await transcribe('text')).text).toBe('Hello from the mock upstream transcription.\n')
    expect((await transcribe('srt')).text).toContain('00:00:00,000 --> 00:00:02,000')
    expect((await transcribe('vtt')).text).toMatch(/^WEBVTT/)
    expect(JSON.parse((await transcribe('verbose_json')).text).segments).toHaveLength(1)
  })

  it('returns binary audio for speech', async () => {
    const response = await post('/v1/audio/speech', { model: 'tts-1', input: 'hello', voice: 'alloy' })
    expect(response.headers.get('content-type')).toBe('audio/mpeg')
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(bytes.subarray(0, 3).toString()).toBe('ID3')
  })

  it('sends speech in pieces, chunk-delay-ms apart, cut after cut-after pieces', async () => {
    const sentAt = Date.now()
    const response = await post('/v1/audio/speech', {
      model: 'tts-1+chunks=3+chunk-delay-ms=150',
      input: 'hello',
      voice: 'alloy',
    })
    const arrivals: number[] = []
    const pieces: Buffer[] = []
    const reader = response.body!.getReader()
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      arrivals.push(Date.now() - sentAt)
      pieces.push(Buffer.from(read.value))
    }
    expect(Buffer.concat(pieces).equals(speechAudio(3))).toBe(true)
    expect(speechAudio(3)).toHaveLength(3 * SPEECH_PIECE_BYTES)
    expect(arrivals[0]).toBeLessThan(150)
    expect(arrivals.at(-1)).toBeGreaterThanOrEqual(290)
    const cut = await post('/v1/audio/speech', {
      model: 'tts-1+chunks=3+cut-after=1',
      input: 'hi',
      voice: 'alloy',
    })
    await expect(cut.arrayBuffer()).rejects.toThrow()
  })

  it('answers speech with stream_format sse as speech.audio.delta events and a speech.audio.done', async () => {
    const body = {
      model: 'gpt-4o-mini-tts+chunks=2',
      input: 'two words',
      voice: 'alloy',
      stream_format: 'sse',
    }
    const response = await post('/v1/audio/speech', body)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    expect(events(await response.text()).map((event) => JSON.parse(event))).toEqual([
      { type: 'speech.audio.delta', audio: speechPiece(0).toString('base64') },
      { type: 'speech.audio.delta', audio: speechPiece(1).toString('base64') },
      { type: 'speech.audio.done', usage: { input_tokens: 2, output_tokens: 20, total_tokens: 22 } },
    ])
  })

  it('rejects unparsable JSON like OpenAI does', async () => {
    const response = await fetch(`${mock.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model":',
    })
    expect(response.status).toBe(400)
    expect((await response.json()).error.type).toBe('invalid_request_error')
  })
})

describe('mock upstream authentication', () => {
  it('accepts only the configured keys, Bearer or Azure api-key', async () => {
    const guarded = await startMockUpstream({ apiKeys: ['sk-good'] })
    try {
      const call = (headers: Record<string, string>) =>
        fetch(`${guarded.url}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(chat) })
      const rejected = await call({ authorization: 'Bearer sk-bad' })
      expect(rejected.status).toBe(401)
      expect((await rejected.json()).error.code).toBe('invalid_api_key')
      expect((await call({ authorization: 'Bearer sk-good' })).status).toBe(200)
      expect((await call({ 'api-key': 'sk-good' })).status).toBe(200)
    } finally {
      await guarded.close()
    }
  })
})
