import { describe, expect, it } from 'vitest'
import type { RelayRequest } from '../adaptor.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { parseOpenAiResponse } from './response.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const json = { 'content-type': 'application/json' }
const parse = (
  request: RelayRequest,
  body: Buffer | string,
  headers: Record<string, string> = json,
  status = 200,
) => parseOpenAiResponse({ status, headers, body: Buffer.from(body) }, request)

describe('parseResponse', () => {
  it('returns the upstream bytes untouched with reasoning and cache details', () => {
    const body = fixture('chat-completion-reasoning.json')
    const result = parse(jsonRelayRequest('chat', { model: 'o3-mini' }), body)
    expect(result).toMatchObject({ kind: 'response', usage: { cachedTokens: 1024, reasoningTokens: 192 } })
    if (result.kind === 'response') expect(result.body.equals(body)).toBe(true)
  })

  it('reads embeddings usage', () => {
    const result = parse(jsonRelayRequest('embeddings', { model: 'e' }), fixture('embeddings.json'))
    expect(result).toMatchObject({ usage: { promptTokens: 8, completionTokens: 0, totalTokens: 8 } })
  })

  it('gives the choice text for a local count when usage is missing', () => {
    const body = JSON.stringify({
      choices: [{ message: { role: 'assistant', content: 'four words right here' } }],
    })
    expect(parse(jsonRelayRequest('chat', { model: 'm' }), body)).toMatchObject({
      usage: undefined,
      completionText: 'four words right here',
    })
  })

  it('gives the text for a local count when usage leaves out the completion count', () => {
    const body = JSON.stringify({
      choices: [{ message: { role: 'assistant', content: 'four words right here' } }],
      usage: { prompt_tokens: 3 },
    })
    expect(parse(jsonRelayRequest('chat', { model: 'm' }), body)).toMatchObject({
      usage: { promptTokens: 3, completionMissing: true },
      completionText: 'four words right here',
    })
  })

  it('gives tool-call arguments, refusals and reasoning for a local count too, not only the content', () => {
    const body = JSON.stringify({
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'think ',
            tool_calls: [
              { id: 'a', type: 'function', function: { name: 'f', arguments: '{"city":"Paris"}' } },
              { id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } },
            ],
          },
        },
        { message: { role: 'assistant', content: null, refusal: 'no' } },
      ],
    })
    expect(parse(jsonRelayRequest('chat', { model: 'm' }), body)).toMatchObject({
      usage: undefined,
      completionText: 'think {"city":"Paris"}{}no',
    })
  })

  it('reads a streamed transcription for its text and usage, not its event framing', () => {
    const events = [
      { type: 'transcript.text.delta', delta: 'Hello' },
      { type: 'transcript.text.delta', delta: ' world' },
      {
        type: 'transcript.text.done',
        text: 'Hello world',
        usage: { type: 'tokens', input_tokens: 10, output_tokens: 3, total_tokens: 13 },
      },
    ]
    const body = `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`
    const request = jsonRelayRequest('audio-transcription', { model: 'gpt-4o-transcribe' })
    const result = parse(request, body, { 'content-type': 'text/event-stream' })
    expect(result).toMatchObject({
      kind: 'response',
      completionText: 'Hello world',
      usage: { promptTokens: 10, completionTokens: 3, totalTokens: 13 },
    })
    if (result.kind === 'response') expect(result.body.toString()).toBe(body)
    // Without a done event, the deltas are the text.
    const cut = `data: ${JSON.stringify(events[0])}\n\n`
    expect(parse(request, cut, { 'content-type': 'text/event-stream' })).toMatchObject({
      completionText: 'Hello',
      usage: undefined,
    })
  })

  it('treats a 200 carrying an error object as an error, and invalid JSON as a retryable failure', () => {
    const error = JSON.stringify({ error: { message: 'quota', type: 'insufficient_quota' } })
    expect(parse(jsonRelayRequest('chat', { model: 'm' }), error)).toMatchObject({
      kind: 'error',
      status: 502,
    })
    expect(parse(jsonRelayRequest('chat', { model: 'm' }), 'not json')).toMatchObject({
      kind: 'error',
      retryable: true,
    })
  })

  it('treats a success without the answer (no choices, embeddings or moderation results) as a retryable failure', () => {
    const usage = { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 }
    for (const [mode, body] of [
      ['chat', '{}'],
      ['chat', JSON.stringify({ object: 'chat.completion', usage })],
      ['completions', JSON.stringify({ object: 'text_completion', usage })],
      ['embeddings', JSON.stringify({ object: 'list', usage })],
      ['moderations', '{}'],
    ] as const) {
      expect(parse(jsonRelayRequest(mode, { model: 'm' }), body), `${mode} ${body}`).toMatchObject({
        kind: 'error',
        status: 502,
        retryable: true,
        code: 'invalid_upstream_response',
      })
    }
    // An answer that has its list is read as before, empty or not.
    const empty = JSON.stringify({ object: 'list', data: [], usage })
    expect(parse(jsonRelayRequest('embeddings', { model: 'm' }), empty)).toMatchObject({ kind: 'response' })
    const moderation = JSON.stringify({ id: 'modr-1', model: 'm', results: [{ flagged: false }] })
    expect(parse(jsonRelayRequest('moderations', { model: 'm' }), moderation)).toMatchObject({
      kind: 'response',
    })
  })

  it('refuses a JSON reply to a stream request', () => {
    const result = parse(
      jsonRelayRequest('chat', { model: 'm', stream: true }),
      fixture('chat-completion.json'),
    )
    expect(result).toMatchObject({ kind: 'error', code: 'upstream_stream_not_supported' })
  })

  it('extracts transcription text from every response_format', () => {
    const request = jsonRelayRequest('audio-transcription', {}, { json: undefined })
    expect(parse(request, '{"text":"hello there"}')).toMatchObject({ completionText: 'hello there' })
    expect(parse(request, 'hello there\n', { 'content-type': 'text/plain' })).toMatchObject({
      completionText: 'hello there',
    })
    const srt = '1\n00:00:00,000 --> 00:00:01,000\nhello\n\n2\n00:00:01,000 --> 00:00:02,000\nthere\n'
    expect(parse(request, srt, { 'content-type': 'text/plain' })).toMatchObject({
      completionText: 'hello there',
    })
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nhello there\n'
    expect(parse(request, vtt, { 'content-type': 'text/vtt' })).toMatchObject({
      completionText: 'hello there',
    })
  })

  it('passes speech audio through and maps its JSON errors', () => {
    const request = jsonRelayRequest('audio-speech', { model: 'tts-1', input: 'hi' })
    const audio = Buffer.from([0x49, 0x44, 0x33, 0, 1, 2])
    expect(parse(request, audio, { 'content-type': 'audio/mpeg' })).toMatchObject({
      kind: 'response',
      usage: undefined,
    })
    expect(parse(request, fixture('error-400.json'), json, 400)).toMatchObject({ kind: 'error', status: 400 })
  })
})

describe('rerank answers of OpenAI-compatible servers', () => {
  const rerank = jsonRelayRequest('rerank', {
    model: 'jina-reranker-v2-base-multilingual',
    query: 'q',
    documents: ['a'],
  })
  const answer = (usage: unknown) =>
    Buffer.from(
      JSON.stringify({
        model: 'jina-reranker-v2-base-multilingual',
        usage,
        results: [{ index: 0, relevance_score: 0.9 }],
      }),
    )

  it('passes the answer on and reads its tokens as input (Jina and vLLM report a total)', () => {
    const body = answer({ total_tokens: 15 })
    const parsed = parseOpenAiResponse({ status: 200, headers: {}, body }, rerank)
    expect(parsed).toMatchObject({
      kind: 'response',
      body,
      usage: { promptTokens: 15, completionTokens: 0, totalTokens: 15 },
    })
    const withPrompt = parseOpenAiResponse(
      { status: 200, headers: {}, body: answer({ prompt_tokens: 7, total_tokens: 7 }) },
      rerank,
    )
    expect(withPrompt).toMatchObject({ usage: { promptTokens: 7 } })
  })

  it('refuses an answer without results and maps errors', () => {
    expect(parseOpenAiResponse({ status: 200, headers: {}, body: Buffer.from('{}') }, rerank)).toMatchObject({
      kind: 'error',
      retryable: true,
    })
    expect(
      parseOpenAiResponse({ status: 429, headers: {}, body: Buffer.from('{"detail":"slow down"}') }, rerank),
    ).toMatchObject({
      kind: 'error',
      status: 429,
      retryable: true,
    })
  })
})
