/**
 * Every reply of the mock matches OpenAI's published schema, so relay tests built on it test the
 * real wire format.
 */
import { openAiSchemaPath, schemaIssues } from '@one-api/providers/testing/openai-schema'
import { responsesEventIssues } from '@one-api/providers/testing/responses-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from './server.ts'

let mock: MockUpstream
beforeAll(async () => {
  mock = await startMockUpstream()
})
afterAll(() => mock.close())

const post = async (path: string, body: unknown) => {
  const response = await fetch(mock.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return response.text()
}
const messages = [{ role: 'user', content: 'hi' }]
const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }]
const streamEvents = (text: string) =>
  text
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => JSON.parse(event.slice(6)))

describe.skipIf(!openAiSchemaPath)('mock replies match OpenAI’s published schemas', () => {
  it('chat completions, plain and with tools, JSON and streamed', async () => {
    for (const extra of [{}, { tools }]) {
      const body = JSON.parse(await post('/v1/chat/completions', { model: 'm', messages, ...extra }))
      expect(schemaIssues('CreateChatCompletionResponse', body)).toEqual([])
      const stream = { model: 'm', messages, stream: true, stream_options: { include_usage: true }, ...extra }
      const chunks = streamEvents(await post('/v1/chat/completions', stream))
      for (const chunk of chunks)
        expect(schemaIssues('CreateChatCompletionStreamResponse', chunk)).toEqual([])
    }
  })

  it('responses, plain and with a function tool, JSON and streamed with their sequence numbers', async () => {
    const functionTool = { type: 'function', name: 'lookup', parameters: { type: 'object' }, strict: false }
    for (const extra of [{}, { tools: [functionTool] }, { max_output_tokens: 2 }]) {
      const body = JSON.parse(await post('/v1/responses', { model: 'm', input: 'hi', ...extra }))
      expect(schemaIssues('Response', body)).toEqual([])
      const stream = await post('/v1/responses', { model: 'm', input: 'hi', stream: true, ...extra })
      const events = stream
        .split('\n\n')
        .filter((block) => block.startsWith('event: '))
        .map((block) => JSON.parse(block.split('\ndata: ')[1]!))
      expect(events.at(-1).type).toBe(
        body.status === 'incomplete' ? 'response.incomplete' : 'response.completed',
      )
      events.forEach((event, index) => {
        expect(event.sequence_number).toBe(index)
        expect(responsesEventIssues(event), event.type).toEqual([])
      })
    }
  })

  it('completions, embeddings, moderations, images, models and errors', async () => {
    const completion = JSON.parse(await post('/v1/completions', { model: 'm', prompt: 'a' }))
    expect(schemaIssues('CreateCompletionResponse', completion)).toEqual([])
    const embeddings = JSON.parse(await post('/v1/embeddings', { model: 'e', input: ['a', 'b'] }))
    expect(schemaIssues('CreateEmbeddingResponse', embeddings)).toEqual([])
    const moderation = JSON.parse(await post('/v1/moderations', { input: 'flag-me' }))
    expect(schemaIssues('CreateModerationResponse', moderation)).toEqual([])
    const images = JSON.parse(await post('/v1/images/generations', { prompt: 'cat' }))
    expect(schemaIssues('ImagesResponse', images)).toEqual([])
    const models = JSON.parse(await (await fetch(`${mock.url}/v1/models`)).text())
    expect(schemaIssues('ListModelsResponse', models)).toEqual([])
    for (const status of [400, 401, 404, 429, 500, 503]) {
      const error = JSON.parse(await post('/v1/chat/completions', { model: `m+status=${status}`, messages }))
      expect(schemaIssues('ErrorResponse', error)).toEqual([])
    }
  })

  it('transcriptions as json and verbose_json', async () => {
    for (const [format, schema] of [
      ['json', 'CreateTranscriptionResponseJson'],
      ['verbose_json', 'CreateTranscriptionResponseVerboseJson'],
    ]) {
      const form = new FormData()
      form.set('file', new Blob([new Uint8Array([1])]), 'a.mp3')
      form.set('model', 'whisper-1')
      form.set('response_format', format)
      const response = await fetch(`${mock.url}/v1/audio/transcriptions`, { method: 'POST', body: form })
      expect(schemaIssues(schema, await response.json())).toEqual([])
    }
  })
})
