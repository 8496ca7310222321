import OpenAI, { toFile } from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from './server.ts'

let mock: MockUpstream
let client: OpenAI
beforeAll(async () => {
  mock = await startMockUpstream({ apiKeys: ['sk-mock'] })
  client = new OpenAI({ apiKey: 'sk-mock', baseURL: `${mock.url}/v1`, maxRetries: 0 })
})
afterAll(() => mock.close())

const messages = [{ role: 'user' as const, content: 'hello there' }]

describe('mock upstream with the official openai client', () => {
  it('completes a chat', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages })
    expect(completion.choices[0].message.content).toBe('Hello from the mock upstream')
    expect(completion.usage?.total_tokens).toBe(7)
  })

  it('streams a chat with usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    })
    let text = ''
    let total = 0
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      total = chunk.usage?.total_tokens ?? total
    }
    expect(text).toBe('Hello from the mock upstream')
    expect(total).toBe(7)
  })

  it('streams a tool call', async () => {
    const stream = client.chat.completions.stream({
      model: 'gpt-4o-mini',
      messages,
      tools: [
        { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
      ],
    })
    const final = await stream.finalChatCompletion()
    expect(final.choices[0].message.tool_calls?.[0]).toMatchObject({
      function: { name: 'lookup', arguments: '{"mock":true}' },
    })
  })

  it('creates embeddings (the SDK asks for base64 and decodes it)', async () => {
    const result = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'a b c' })
    expect(result.data[0].embedding).toHaveLength(8)
    expect(result.data[0].embedding[0]).toBeCloseTo(0.841471, 5)
    expect(result.usage.prompt_tokens).toBe(3)
  })

  it('moderates, generates images, speaks, transcribes and lists models', async () => {
    const moderation = await client.moderations.create({ input: 'hello' })
    expect(moderation.results[0].flagged).toBe(false)
    const image = await client.images.generate({ model: 'dall-e-3', prompt: 'a cat' })
    expect(image.data?.[0].url).toMatch(/^https:/)
    const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hi' })
    expect((await speech.arrayBuffer()).byteLength).toBe(4096)
    const file = await toFile(Buffer.from([1, 2, 3]), 'a.mp3')
    const transcript = await client.audio.transcriptions.create({ model: 'whisper-1', file })
    expect(transcript.text).toBe('Hello from the mock upstream transcription.')
    const translation = await client.audio.translations.create({
      model: 'whisper-1',
      file,
      response_format: 'text',
    })
    expect(String(translation).trim()).toBe('Hello from the mock upstream transcription.')
    const models = await client.models.list()
    expect(models.data.length).toBeGreaterThan(3)
  })

  it('surfaces injected errors as the SDK error classes', async () => {
    await expect(
      client.chat.completions.create({ model: 'gpt-4o-mini+status=429', messages }),
    ).rejects.toBeInstanceOf(OpenAI.RateLimitError)
    const wrongKey = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${mock.url}/v1`, maxRetries: 0 })
    await expect(wrongKey.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError)
  })
})
