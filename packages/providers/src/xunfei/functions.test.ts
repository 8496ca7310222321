/**
 * Xunfei Spark v1 function calling (type 18): OpenAI tools sent as `payload.functions.text`, and
 * Spark's documented `function_call` answer read back as OpenAI tool calls, gathered and streamed.
 */
import { describe, expect, it } from 'vitest'
import { assembled, build, chatCompletionOf, parsed, replayStream } from '../testing/conformance-replay.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { xunfeiAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const channel = { type: 18, key: 'app123|secret456|key789' }
const weather = {
  name: '天气查询',
  description:
    '天气插件可以提供天气相关信息。你可以提供指定的地点信息、指定的时间点或者时间段信息，来精准检索到天气信息。',
  parameters: {
    type: 'object',
    properties: {
      location: { type: 'string', description: '地点，比如北京。' },
      datetime: { type: 'string', description: '日期或时间，比如今天、明天。' },
    },
    required: ['location'],
  },
}
const ask = (extra: Record<string, unknown> = {}) =>
  jsonRelayRequest(
    'chat',
    {
      model: 'Spark-Max',
      messages: [{ role: 'user', content: '合肥今天天气怎么样' }],
      tools: [{ type: 'function', function: weather }],
      ...extra,
    },
    { receivedAt: 1683283419 },
  )
const sentPayload = (request: ReturnType<typeof ask>) =>
  JSON.parse(String(build(xunfeiAdaptor, request, channel).body)).payload
const arguments_ = { datetime: '今天', location: '合肥' }

describe('Xunfei Spark function calling', () => {
  it('sends the tools as payload.functions.text', () => {
    expect(sentPayload(ask()).functions).toEqual({ text: [weather] })
    // The older `functions` field of OpenAI's API too.
    const legacy = ask({ tools: undefined, functions: [weather] })
    expect(sentPayload(legacy).functions).toEqual({ text: [weather] })
  })

  it('sends no functions when the client forbids calls or offers none', () => {
    expect(sentPayload(ask({ tool_choice: 'none' })).functions).toBeUndefined()
    expect(sentPayload(ask({ tools: [] })).functions).toBeUndefined()
    expect(
      sentPayload(ask({ tools: [{ type: 'function', function: { description: 'no name' } }] })).functions,
    ).toBeUndefined()
  })

  it('reads a function_call answer as an OpenAI tool call, with its usage', () => {
    const reply = { status: 200, headers: {}, body: fixture('function-call.ndjson') }
    const result = parsed(xunfeiAdaptor.parseResponse(reply, ask()))
    // biome-ignore lint/suspicious/noExplicitAny: a parsed answer, read field by field
    const completion = chatCompletionOf(result) as any
    const choice = completion.choices[0]
    expect(choice.finish_reason).toBe('tool_calls')
    expect(choice.message.content).toBeNull()
    expect(choice.message.tool_calls).toHaveLength(1)
    expect(choice.message.tool_calls[0]).toMatchObject({
      id: 'call_cht000b9f4@dx18ae6c6dd2cb8f2542_0',
      type: 'function',
      function: { name: '天气查询' },
    })
    expect(JSON.parse(choice.message.tool_calls[0].function.arguments)).toEqual(arguments_)
    expect(result.usage).toMatchObject({ promptTokens: 209, completionTokens: 21, totalTokens: 230 })
  })

  it('streams the function call as one tool call chunk, in any split', () => {
    for (const size of [1, 7, 100_000]) {
      const request = ask({ stream: true })
      const replay = replayStream(xunfeiAdaptor, channel, request, fixture('function-call.ndjson'), size)
      const answer = assembled(replay.chunks)
      expect(answer.finishReason).toBe('tool_calls')
      expect(answer.tools).toHaveLength(1)
      expect(answer.tools[0]!.name).toBe('天气查询')
      expect(JSON.parse(answer.tools[0]!.arguments)).toEqual(arguments_)
      expect(replay.transformer.answered).toBe(true)
      expect(replay.transformer.usage).toMatchObject({ totalTokens: 230 })
    }
  })
})
