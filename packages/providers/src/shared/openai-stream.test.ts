import { describe, expect, it } from 'vitest'
import { createOpenAiStreamTransformer } from './openai-stream.ts'

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta }], ...extra })}\n\n`
const usageChunk = `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } })}\n\n`

function run(input: string, dropUsageChunk: boolean, mode: 'chat' | 'completions' = 'chat') {
  const transformer = createOpenAiStreamTransformer({ mode, dropUsageChunk, completionTextCap: 8 })
  const output = transformer.push(Buffer.from(input)) + transformer.finish()
  return { transformer, output }
}

describe('OpenAI stream transformer', () => {
  it('never passes on half an event when the stream is cut inside it', () => {
    const transformer = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: false })
    const half = 'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hel'
    const output = transformer.push(Buffer.from(chunk({ content: 'Hi' }) + half)) + transformer.finish(false)
    expect(output).toBe(chunk({ content: 'Hi' }))
  })

  it('delivers a whole last event that lacks its blank line', () => {
    const last = chunk({ content: 'Hi' }).trimEnd()
    const { output } = run(last, false)
    expect(output).toBe(`${chunk({ content: 'Hi' })}data: [DONE]\n\n`)
  })

  it('appends [DONE] when the upstream stream was cut, and reports it was cut', () => {
    const { output, transformer } = run(chunk({ content: 'Hi' }), false)
    expect(output).toBe(`${chunk({ content: 'Hi' })}data: [DONE]\n\n`)
    expect(transformer.upstreamCompleted).toBe(false)
  })

  it.each([
    ['whole events', (events: string) => [events]],
    ['CRLF lines, byte by byte', (events: string) => [...events.replaceAll('\n', '\r\n')]],
  ])('tells an answer from a stream that only opened (%s)', (_shape, pieces) => {
    const answeredAfter = (events: string, mode: 'chat' | 'completions' = 'chat') => {
      const transformer = createOpenAiStreamTransformer({ mode, dropUsageChunk: true })
      for (const piece of pieces(events)) transformer.push(Buffer.from(piece))
      return transformer.answered
    }
    const opening = chunk({ role: 'assistant', content: '', refusal: null })
    const error = `data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })}\n\n`
    // OpenAI's opening chunk, an error event and [DONE] answer nothing: a failure after them may
    // still move to another channel.
    expect(answeredAfter(opening)).toBe(false)
    expect(answeredAfter(`${opening}${error}data: [DONE]\n\n`)).toBe(false)
    expect(answeredAfter(`${opening}${chunk({ content: 'Hi' })}`)).toBe(true)
    // A first chunk that carries something besides its role answers at once.
    expect(answeredAfter(chunk({ role: 'assistant', content: 'Hi' }))).toBe(true)
    expect(answeredAfter(chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1' }] }))).toBe(true)
    expect(
      answeredAfter(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
      ),
    ).toBe(true)
    expect(
      answeredAfter(`data: ${JSON.stringify({ choices: [{ text: 'Hi', index: 0 }] })}\n\n`, 'completions'),
    ).toBe(true)
  })

  it("reads OpenAI's own opening chunk as an opening, and what only resembles it as an answer", () => {
    const answeredAfter = (payload: string) => {
      const transformer = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: true })
      transformer.push(Buffer.from(`data: ${payload}\n\n`))
      return transformer.answered
    }
    const opening =
      '"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]'
    const head = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini",'
    expect(answeredAfter(`${head}${opening},"usage":null}`)).toBe(false)
    expect(answeredAfter(`${head}${opening.replace(',"refusal":null', '')}}`)).toBe(false)
    // The same choices with a usage object, or followed by a second choices list (the last one
    // counts, as in JSON.parse): answers.
    expect(
      answeredAfter(`${head}${opening},"usage":{"prompt_tokens":1,"completion_tokens":0,"total_tokens":1}}`),
    ).toBe(true)
    expect(answeredAfter(`${head}${opening},"choices":[{"index":0,"delta":{"content":"Hi"}}]}`)).toBe(true)
  })

  it('keeps the name of a named event it re-frames', () => {
    // CRLF lines go through the line parser, which re-frames each event: the name was dropped.
    const named = `event: error\r\ndata: ${JSON.stringify({ message: 'overloaded' })}\r\n\r\n`
    const { output } = run(named, false)
    expect(output).toBe(
      `event: error\ndata: ${JSON.stringify({ message: 'overloaded' })}\n\ndata: [DONE]\n\n`,
    )
  })

  it('never forwards anything after [DONE], nor a second [DONE]', () => {
    const { output } = run(`data: [DONE]\n\n${chunk({ content: 'late' })}data: [DONE]\n\n`, false)
    expect(output).toBe('data: [DONE]\n\n')
  })

  it('drops the usage-only chunk the relay asked for, but keeps its usage', () => {
    const { output, transformer } = run(`${chunk({ content: 'Hi' })}${usageChunk}data: [DONE]\n\n`, true)
    expect(output).not.toContain('"usage"')
    expect(transformer.usage).toMatchObject({ promptTokens: 5, completionTokens: 2, totalTokens: 7 })
    expect(run(usageChunk, false).output).toContain('"total_tokens":7')
  })

  it('reads usage attached to a content chunk (last wins) and ignores usage:null', () => {
    const input =
      chunk({ content: 'a' }, { usage: null }) +
      chunk({ content: 'b' }, { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }) +
      chunk({ content: 'c' }, { usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 } })
    const { transformer, output } = run(input, true)
    expect(transformer.usage?.totalTokens).toBe(4)
    expect(transformer.completionText).toBe('abc')
    expect(output.match(/data: \{/g)).toHaveLength(3)
  })

  it('drops Azure content-filter chunks that have no choices', () => {
    const filter = 'data: {"choices":[],"prompt_filter_results":[{"prompt_index":0}]}\n\n'
    expect(run(filter + chunk({ content: 'x' }), false).output).not.toContain('prompt_filter_results')
  })

  it('accumulates escaped text, caps it, and still counts its full length', () => {
    const { transformer } = run(chunk({ content: 'a "quoted"\n' }) + chunk({ content: 'tail text' }), false)
    expect(transformer.completionText).toBe('a "quote')
    expect(transformer.completionTextLength).toBe('a "quoted"\n'.length + 'tail text'.length)
  })

  it('reads choices[].text in completions streams', () => {
    const input = 'data: {"object":"text_completion","choices":[{"text":"Once","index":0}]}\n\n'
    expect(run(input, false, 'completions').transformer.completionText).toBe('Once')
  })

  it('records an error object sent inside the stream and forwards it', () => {
    const error = 'data: {"error":{"message":"overloaded","type":"server_error","code":null}}\n\n'
    const { transformer, output } = run(error, false)
    expect(transformer.streamError).toMatchObject({ message: 'overloaded', retryable: true })
    expect(output).toContain('overloaded')
  })

  it('reads usage and empty choices written with spaces, as json.dumps writes them', () => {
    const spaced =
      'data: {"choices": [ ], "usage" : {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}}\n\n'
    const { output, transformer } = run(`${chunk({ content: 'Hi' })}${spaced}data: [DONE]\n\n`, true)
    expect(output).toBe(`${chunk({ content: 'Hi' })}data: [DONE]\n\n`)
    expect(transformer.usage?.totalTokens).toBe(7)
  })

  it('tells the usage-only chunk by what its choices hold, in both modes', () => {
    const usage = '"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}'
    const cases: Array<[string, 'chat' | 'completions', boolean]> = [
      [`{"choices":[],${usage}}`, 'chat', false],
      [`{"choices": null, ${usage}}`, 'chat', false],
      [`{${usage}}`, 'chat', false],
      [`{"choices":[{"index":0,"delta":{"content":"x"}}],${usage}}`, 'chat', true],
      [`{"object":"text_completion","choices":[],${usage}}`, 'completions', false],
      [`{"object":"text_completion","choices":[{"text":"y","index":0}],${usage}}`, 'completions', true],
    ]
    for (const [payload, mode, forwarded] of cases) {
      const { output, transformer } = run(`data: ${payload}\n\ndata: [DONE]\n\n`, true, mode)
      expect(transformer.usage?.totalTokens).toBe(7)
      expect(output.includes('"usage"')).toBe(forwarded)
    }
  })

  it('is not fooled by key look-alikes inside generated text', () => {
    const text = 'say "usage": {"prompt_tokens": 99} or "error":{} with "choices":[]'
    const transformer = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: true })
    const input = Buffer.from(chunk({ content: text }))
    expect(transformer.push(input)).toBe(input)
    expect(transformer.usage).toBeUndefined()
    expect(transformer.streamError).toBeUndefined()
    expect(transformer.completionText).toBe(text)
  })

  it('keeps the text in order when a long stream outgrows what is held unread', () => {
    const transformer = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: true })
    const words = Array.from({ length: 400 }, (_, index) => `w${index} `)
    for (const word of words) transformer.push(Buffer.from(chunk({ content: word })))
    transformer.push(Buffer.from(`${usageChunk}data: [DONE]\n\n`))
    expect(transformer.completionText).toBe(words.join(''))
    expect(transformer.completionTextLength).toBe(words.join('').length)
  })

  it('keeps memory flat over a long stream', () => {
    const transformer = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: true })
    const piece = Buffer.from(chunk({ content: 'word ' }))
    let forwarded = 0
    for (let index = 0; index < 50_000; index += 1) forwarded += transformer.push(piece).length
    expect(forwarded).toBe(piece.length * 50_000)
    expect(transformer.completionTextLength).toBe(250_000)
  })
})

describe('OpenAI stream transformer, whole-event fast path', () => {
  const streams: Array<[string, string, boolean]> = [
    [
      'content, usage-only chunk, [DONE]',
      `${chunk({ role: 'assistant', content: '' })}${chunk({ content: 'Hé 你好' })}${usageChunk}data: [DONE]\n\n`,
      true,
    ],
    ['usage kept for a client that asked', `${chunk({ content: 'x' })}${usageChunk}data: [DONE]\n\n`, false],
    [
      'Azure empty-choices chunk',
      `data: {"choices":[],"prompt_filter_results":[]}\n\n${chunk({ content: 'y' })}data: [DONE]\n\n`,
      false,
    ],
    [
      'error object in the stream',
      `${chunk({ content: 'z' })}data: {"error":{"message":"overloaded","type":"server_error"}}\n\n`,
      false,
    ],
    ['events after [DONE]', `data: [DONE]\n\n${chunk({ content: 'late' })}data: [DONE]\n\n`, false],
    ['blank payload', `data: \n\n${chunk({ content: 'k' })}`, false],
  ]

  it.each(streams)('gives the same output and accounting whole as byte by byte: %s', (_name, input, drop) => {
    const whole = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: drop })
    const wholeOutput = whole.push(Buffer.from(input)) + whole.finish()
    const split = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: drop })
    let splitOutput = ''
    for (const byte of Buffer.from(input)) splitOutput += split.push(Buffer.from([byte]))
    splitOutput += split.finish()
    expect(wholeOutput).toBe(splitOutput)
    expect(whole.usage).toEqual(split.usage)
    expect(whole.completionText).toBe(split.completionText)
    expect(whole.upstreamCompleted).toBe(split.upstreamCompleted)
    expect(whole.streamError?.message).toBe(split.streamError?.message)
  })

  it('hands back the very chunk when every event in it passes unchanged', () => {
    const transformer = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: true })
    const input = Buffer.from(chunk({ content: 'a' }) + chunk({ content: 'b' }))
    expect(transformer.push(input)).toBe(input)
    expect(transformer.completionText).toBe('ab')
  })

  it('drops events from the middle of a chunk in place, keeping the text of the events after them', () => {
    const transformer = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: true })
    const blank = 'data:  \n\n'
    const input = Buffer.from(
      chunk({ content: 'a' }) + usageChunk + chunk({ content: 'b' }) + blank + chunk({ content: 'c' }),
    )
    const output = transformer.push(input) as Buffer
    expect(output.toString()).toBe(
      chunk({ content: 'a' }) + chunk({ content: 'b' }) + chunk({ content: 'c' }),
    )
    // The output is the front of the chunk itself, not a copy.
    expect(output.buffer).toBe(input.buffer)
    expect(output.byteOffset).toBe(input.byteOffset)
    expect(transformer.finish()).toBe('data: [DONE]\n\n')
    expect(transformer.completionText).toBe('abc')
    expect(transformer.usage).toMatchObject({ promptTokens: 5, completionTokens: 2, totalTokens: 7 })
  })

  it('leaves CRLF streams and split events to the line parser', () => {
    const transformer = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: false })
    const event = chunk({ content: 'a' })
    expect(String(transformer.push(Buffer.from(event.replaceAll('\n', '\r\n'))))).toBe(event)
    expect(String(transformer.push(Buffer.from(event.slice(0, 10))))).toBe('')
    expect(String(transformer.push(Buffer.from(event.slice(10))))).toBe(event)
  })

  it('keeps every line of an event sent as several data lines, each as a data line', () => {
    // JSON pretty-printed over two data lines (the SSE format joins them with a newline).
    const { output, transformer } = run(
      'data: {"choices":[{"index":0,\ndata: "delta":{"content":"Hi"}}]}\n\n',
      false,
    )
    expect(output).toBe(
      'data: {"choices":[{"index":0,\ndata: "delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n',
    )
    expect(transformer.completionText).toBe('Hi')
  })

  it('reads the arguments of streamed tool calls as generated text, for a local count', () => {
    const call = (args: string) =>
      chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }, { usage: null })
    const { transformer } = run(
      `${chunk({ role: 'assistant', content: null })}${call('{"a":')}${call('1}')}`,
      false,
    )
    const wide = createOpenAiStreamTransformer({ mode: 'chat', dropUsageChunk: false })
    wide.push(Buffer.from(`${call('{"city":')}${call('"Paris"}')}data: [DONE]\n\n`))
    expect(wide.completionText).toBe('{"city":"Paris"}')
    expect(transformer.completionText).toBe('{"a":1}')
  })
})
