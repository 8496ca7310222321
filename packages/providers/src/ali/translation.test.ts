import { describe, expect, it } from 'vitest'
import type { ChannelCredentials, TaskPlan, UpstreamRequest } from '../adaptor.ts'
import { getAdaptor } from '../registry.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { aliAdaptor } from './adaptor.ts'
import { POLL_INTERVAL_MS } from './image-task.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const channel = { type: 17, key: 'sk-dashscope', baseUrl: 'https://dash.example.com/' }
const built = (request: ReturnType<typeof jsonRelayRequest>, credentials: ChannelCredentials = channel) => {
  const result = aliAdaptor.buildRequest(request, credentials)
  if (result.kind !== 'request') throw new Error(result.message)
  // biome-ignore lint/suspicious/noExplicitAny: the sent body, read field by field below
  const json: Record<string, any> = JSON.parse(String(result.body))
  return { ...result, json } as UpstreamRequest & { json: typeof json }
}
const chat = (extra: Record<string, unknown> = {}) =>
  jsonRelayRequest('chat', { model: 'qwen-plus', messages: [{ role: 'user', content: 'hi' }], ...extra })
const answer = (name: string, status = 200) => ({ status, headers: {}, body: fixture(name) })

describe('Ali DashScope requests', () => {
  it('serves channel type 17', () => expect(getAdaptor(17)).toBe(aliAdaptor))

  it('sends chat to text generation, streams with X-DashScope-SSE, and sends the plugin config', () => {
    const plain = built(chat())
    expect(plain.url).toBe('https://dash.example.com/api/v1/services/aigc/text-generation/generation')
    expect(plain.headers['X-DashScope-SSE']).toBeUndefined()
    expect(plain.json.parameters).toMatchObject({ result_format: 'message', incremental_output: false })
    const plugin = { type: 17, key: 'k', config: { plugin: '{"pdf_extracter":{}}' } }
    const streamed = built(chat({ stream: true }), plugin)
    expect(streamed.url).toBe(
      'https://dashscope.aliyuncs.com/api/v1/services/aigc/text-generation/generation',
    )
    expect(streamed.headers).toMatchObject({
      'X-DashScope-SSE': 'enable',
      Accept: 'text/event-stream',
      'X-DashScope-Plugin': '{"pdf_extracter":{}}',
    })
    expect(streamed.json.parameters.incremental_output).toBe(true)
    // An old database keeps the plugin in the `other` column.
    expect(
      built(chat(), { type: 17, key: 'k', other: '{"calculator":{}}' }).headers['X-DashScope-Plugin'],
    ).toBe('{"calculator":{}}')
  })

  it('turns a -internet model into web search, caps top_p and maps max_tokens', () => {
    const request = jsonRelayRequest('chat', {
      model: 'qwen-max-internet',
      messages: [{ role: 'user', content: 'news' }],
      top_p: 1,
      max_tokens: 50,
    })
    const { json } = built(request)
    expect(json.model).toBe('qwen-max')
    expect(json.parameters).toMatchObject({ enable_search: true, top_p: 0.9999, max_tokens: 50 })
  })

  it('puts the channel system prompt first, replacing the client one', () => {
    const request = jsonRelayRequest(
      'chat',
      {
        model: 'qwen-plus',
        messages: [
          { role: 'system', content: 'theirs' },
          { role: 'user', content: 'hi' },
        ],
      },
      { systemPrompt: 'ours' },
    )
    expect(built(request).json.input.messages).toEqual([
      { role: 'system', content: 'ours' },
      { role: 'user', content: 'hi' },
    ])
  })

  it('sends embeddings as texts and answers in OpenAI format with the usage', () => {
    const request = jsonRelayRequest('embeddings', {
      model: 'text-embedding-v1',
      input: ['风急天高猿啸哀', '渚清沙白鸟飞回'],
    })
    const sent = built(request)
    expect(sent.url).toBe('https://dash.example.com/api/v1/services/embeddings/text-embedding/text-embedding')
    expect(sent.json).toEqual({
      model: 'text-embedding-v1',
      input: { texts: ['风急天高猿啸哀', '渚清沙白鸟飞回'] },
      parameters: {},
    })
    const parsed = aliAdaptor.parseResponse(answer('embeddings.json'), request)
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    const body = JSON.parse(parsed.body.toString())
    expect(body.data.map((item: { index: number }) => item.index)).toEqual([0, 1])
    expect(body.data[0].embedding).toHaveLength(3)
    expect(body.usage).toEqual({ prompt_tokens: 12, total_tokens: 12 })
    expect(parsed.usage?.totalTokens).toBe(12)
  })
})

describe('Ali DashScope images as a task', () => {
  const request = jsonRelayRequest('images', {
    model: 'ali-stable-diffusion-xl',
    prompt: '一只奔跑的猫',
    size: '1024x1024',
    n: 1,
  })
  const plan = aliAdaptor.task!(request, channel) as TaskPlan

  it('submits asynchronously with the DashScope model name and size', () => {
    const sent = built(request)
    expect(sent.url).toBe('https://dash.example.com/api/v1/services/aigc/text2image/image-synthesis')
    expect(sent.headers['X-DashScope-Async']).toBe('enable')
    expect(sent.json).toEqual({
      model: 'stable-diffusion-xl',
      input: { prompt: '一只奔跑的猫' },
      parameters: { n: 1, size: '1024*1024' },
    })
    expect(aliAdaptor.task!(chat(), channel)).toBeUndefined()
  })

  it('polls the task until it SUCCEEDED, then answers with the image URLs', () => {
    const poll = {
      kind: 'poll',
      afterMs: POLL_INTERVAL_MS,
      request: {
        url: 'https://dash.example.com/api/v1/tasks/0385dc79-5ff8-4d82-bcb6-9c4d2e1f8a7b',
        headers: { Authorization: 'Bearer sk-dashscope' },
      },
    }
    expect(plan.next(answer('image-submit.json'), 0)).toEqual(poll)
    expect(plan.next(answer('image-task-running.json'), 1)).toEqual(poll)
    expect(plan.next(answer('image-task-succeeded.json'), 2)).toEqual({ kind: 'done' })
    const parsed = aliAdaptor.parseResponse(answer('image-task-succeeded.json'), {
      ...request,
      receivedAt: 1715838601,
    })
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(parsed.imageCount).toBe(1)
    expect(JSON.parse(parsed.body.toString())).toEqual({
      created: 1715838601,
      data: [
        {
          url: 'https://dashscope-result-bj.oss-cn-beijing.aliyuncs.com/1d/f6/20240516/8d820c8d/c6e7a2d5-e9ef-4b04-9d93-e0ab6d1e21c1-1.png',
        },
      ],
    })
  })

  it('fails on a FAILED task with its message, and on a refused submit with the upstream error', () => {
    expect(plan.next(answer('image-task-failed.json'), 3)).toMatchObject({
      kind: 'error',
      status: 502,
      code: 'InvalidParameter',
      message: 'the upstream task ended FAILED: The size is not match the allowed size ratio.',
    })
    const refused = aliAdaptor.parseResponse(answer('error-401.json', 401), request)
    expect(refused).toMatchObject({ kind: 'error', status: 401, disableChannel: true, code: 'InvalidApiKey' })
  })

  it('refuses b64_json answers before calling the upstream', () => {
    const b64 = jsonRelayRequest('images', { model: 'wanx-v1', prompt: 'cat', response_format: 'b64_json' })
    expect(aliAdaptor.buildRequest(b64, channel)).toMatchObject({ kind: 'error', status: 400 })
  })
})
