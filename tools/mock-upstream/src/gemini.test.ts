import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from './server.ts'

let mock: MockUpstream
beforeAll(async () => {
  mock = await startMockUpstream({ apiKeys: ['AIza-good'] })
})
afterAll(() => mock.close())

const body = {
  systemInstruction: { parts: [{ text: 'Be brief' }] },
  contents: [{ role: 'user', parts: [{ text: 'three words here' }] }],
}
const post = (
  path: string,
  json: unknown,
  headers: Record<string, string> = { 'x-goog-api-key': 'AIza-good' },
) =>
  fetch(mock.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(json),
  })

describe("the mock's Gemini API", () => {
  it('answers generateContent with usage counted from the contents and the system instruction', async () => {
    const response = await post('/v1beta/models/gemini-2.0-flash:generateContent', body)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'Hello from the mock upstream' }] },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 10 },
      modelVersion: 'gemini-2.0-flash',
    })
  })

  it('refuses as Google does: no key 403, a wrong key 400 API_KEY_INVALID, unknown fields 400', async () => {
    const path = '/v1beta/models/gemini-2.0-flash:generateContent'
    const missing = await post(path, body, {})
    expect(missing.status).toBe(403)
    expect((await missing.json()).error.status).toBe('PERMISSION_DENIED')
    const wrong = await post(path, body, { 'x-goog-api-key': 'AIza-bad' })
    expect(wrong.status).toBe(400)
    expect((await wrong.json()).error.details[0].reason).toBe('API_KEY_INVALID')
    const unknown = await post(path, { ...body, model: 'x' })
    expect(unknown.status).toBe(400)
    expect((await unknown.json()).error.message).toContain('Unknown name "model"')
    // The key may come as ?key= too.
    expect((await post(`${path}?key=AIza-good`, body, {})).status).toBe(200)
  })

  it('streams SSE with alt=sse and one JSON array without it', async () => {
    const sse = await post('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse', body)
    expect(sse.headers.get('content-type')).toContain('text/event-stream')
    const events = (await sse.text()).split('\r\n\r\n').filter(Boolean)
    expect(events).toHaveLength(5)
    expect(JSON.parse(events.at(-1)!.slice(6))).toMatchObject({ candidates: [{ finishReason: 'STOP' }] })
    const array = await post('/v1beta/models/gemini-2.0-flash:streamGenerateContent', body)
    expect(array.headers.get('content-type')).toContain('application/json')
    expect(await array.json()).toHaveLength(5)
  })

  it('embeds in batches and counts tokens', async () => {
    const requests = ['a', 'b c'].map((text) => ({
      model: 'models/text-embedding-004',
      content: { parts: [{ text }] },
    }))
    const embedded = await post('/v1/models/text-embedding-004:batchEmbedContents', { requests })
    expect((await embedded.json()).embeddings).toHaveLength(2)
    const counted = await post('/v1beta/models/gemini-2.0-flash:countTokens', { contents: body.contents })
    expect((await counted.json()).totalTokens).toBe(3)
  })
})
