import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from './server.ts'

let mock: MockUpstream
beforeAll(async () => {
  mock = await startMockUpstream()
})
afterEach(() => mock.reset())
afterAll(() => mock.close())

const chat = (model: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  fetch(`${mock.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-channel-a', ...headers },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], ...extra }),
  })

describe('fault injection', () => {
  it('replies with OpenAI error bodies for each status, by header or model suffix', async () => {
    const expected: Record<number, string | null> = {
      400: null,
      401: 'invalid_api_key',
      404: 'model_not_found',
      429: 'rate_limit_exceeded',
      500: null,
      503: null,
    }
    for (const [status, code] of Object.entries(expected)) {
      const byHeader = await chat('gpt-4o-mini', {}, { 'x-mock-status': status })
      expect(byHeader.status).toBe(Number(status))
      expect((await byHeader.json()).error).toMatchObject({ code })
      const byModel = await chat(`gpt-4o-mini+status=${status}`)
      expect(byModel.status).toBe(Number(status))
      if (status === '429') expect(byModel.headers.get('retry-after')).toBe('1')
      else await byModel.arrayBuffer()
    }
  })

  it('applies control-endpoint rules by model and key, for a number of times', async () => {
    const rule = { match: { model: 'gpt-4o', keyContains: 'channel-a' }, status: 503, times: 2 }
    const created = await fetch(`${mock.url}/__mock/faults`, { method: 'POST', body: JSON.stringify(rule) })
    expect(created.status).toBe(200)
    expect((await chat('gpt-4o', {}, { authorization: 'Bearer sk-channel-b' })).status).toBe(200)
    expect((await chat('gpt-4o')).status).toBe(503)
    expect((await chat('gpt-4o')).status).toBe(503)
    expect((await chat('gpt-4o')).status).toBe(200)
    const invalid = await fetch(`${mock.url}/__mock/faults`, { method: 'POST', body: '{"status":-1}' })
    expect(invalid.status).toBe(400)
  })

  it('sends a custom error body from a rule', async () => {
    mock.addFault({
      status: 429,
      body: { error: { message: 'quota gone', type: 'insufficient_quota', code: 'insufficient_quota' } },
    })
    const response = await chat('any')
    expect(await response.json()).toMatchObject({
      error: { message: 'quota gone', code: 'insufficient_quota' },
    })
  })

  it('delays the response headers', async () => {
    const started = performance.now()
    const response = await chat('gpt-4o-mini+delay-ms=150')
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect(response.status).toBe(200)
  })

  it('slows streams down between chunks', async () => {
    const response = await chat('gpt-4o-mini+chunk-delay-ms=40+chunks=3', { stream: true })
    const started = performance.now()
    const arrivals: number[] = []
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    for (;;) {
      const { done } = await reader.read()
      if (done) break
      arrivals.push(performance.now() - started)
    }
    // 3 content + role + finish + [DONE] = 6 events, 5 gaps of 40 ms.
    expect(arrivals.at(-1)).toBeGreaterThanOrEqual(150)
  })

  it('cuts a stream after N events without [DONE]', async () => {
    const response = await chat('gpt-4o-mini+cut-after=2', { stream: true })
    expect(response.status).toBe(200)
    await expect(response.text()).rejects.toThrow()
  })

  it('omits usage when asked, in JSON and in streams', async () => {
    const body = await (await chat('gpt-4o-mini+no-usage')).json()
    expect(body.usage).toBeUndefined()
    const stream = await (
      await chat('m', { stream: true, stream_options: { include_usage: true } }, { 'x-mock-no-usage': '1' })
    ).text()
    expect(stream).not.toContain('"usage"')
    expect(stream.trim().endsWith('data: [DONE]')).toBe(true)
  })

  it('streams very long answers with the promised token counts', async () => {
    const text = await (
      await chat('gpt-4o-mini+chunks=20000+prompt-tokens=42', {
        stream: true,
        stream_options: { include_usage: true },
      })
    ).text()
    const events = text.split('\n\n').filter(Boolean)
    expect(events).toHaveLength(20000 + 4)
    expect(JSON.parse(events.at(-2)?.slice(6) as string).usage).toMatchObject({
      prompt_tokens: 42,
      completion_tokens: 20000,
      total_tokens: 20042,
    })
  })
})
