import { describe, expect, it } from 'vitest'
import { fixtureLoader } from '../testing/fixtures.ts'
import { openAiSchemaPath, schemaIssues } from '../testing/openai-schema.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const json = (name: string) => JSON.parse(fixture(name).toString())

describe.skipIf(!openAiSchemaPath)('recorded fixtures match OpenAI’s published schemas', () => {
  it('chat completions, tool calls and embeddings', () => {
    expect(schemaIssues('CreateChatCompletionResponse', json('chat-completion.json'))).toEqual([])
    expect(schemaIssues('CreateChatCompletionResponse', json('chat-completion-reasoning.json'))).toEqual([])
    expect(schemaIssues('CreateChatCompletionResponse', json('chat-tool-call.json'))).toEqual([])
    expect(schemaIssues('CreateChatCompletionRequest', json('chat-tool-call.request.json'))).toEqual([])
    expect(schemaIssues('CreateEmbeddingResponse', json('embeddings.json'))).toEqual([])
  })

  it('stream chunks', () => {
    const chunks = fixture('chat-stream.sse')
      .toString()
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice(6)))
    expect(chunks).toHaveLength(6)
    for (const chunk of chunks) expect(schemaIssues('CreateChatCompletionStreamResponse', chunk)).toEqual([])
  })

  it('error bodies', () => {
    for (const name of ['400', '401', '404', '429', '429-quota', '500']) {
      expect(schemaIssues('ErrorResponse', json(`error-${name}.json`))).toEqual([])
    }
  })

  it('rejects a body that breaks the schema (the check is real)', () => {
    const broken = { ...json('chat-completion.json'), choices: 'none' }
    expect(schemaIssues('CreateChatCompletionResponse', broken)).not.toEqual([])
  })
})
