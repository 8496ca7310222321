/**
 * Embeddings on Vertex AI: the OpenAI request as a `:predict` call with one instance per text,
 * Google's documented prediction answer as OpenAI's list (floats or base64), its token counts as
 * the usage, and Vertex's errors classified.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api
 */
import { describe, expect, it } from 'vitest'
import type { UpstreamRequest } from '../adaptor.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { testServiceAccount } from '../testing/service-account.ts'
import { vertexAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const account = testServiceAccount('https://oauth2.googleapis.com/token')
const channel = { type: 42, key: `us-central1|my-project|${account.adc}`, accessToken: 'ya29.token' }
const embed = (body: Record<string, unknown>) =>
  jsonRelayRequest('embeddings', { model: 'text-embedding-005', input: ['What is life?', 'Hi'], ...body })
const answer = (name: string, status = 200) => ({ status, headers: {}, body: fixture(name) })

describe('Vertex AI embeddings', () => {
  it('calls predict under publisher google with one instance per text and dimensions as outputDimensionality', () => {
    const built = vertexAdaptor.buildRequest(embed({ dimensions: 256 }), channel) as UpstreamRequest
    expect(built.url).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google/models/text-embedding-005:predict',
    )
    expect(built.headers).toMatchObject({ authorization: 'Bearer ya29.token', accept: 'application/json' })
    expect(JSON.parse(String(built.body))).toEqual({
      instances: [{ content: 'What is life?' }, { content: 'Hi' }],
      parameters: { outputDimensionality: 256 },
    })
    const single = vertexAdaptor.buildRequest(
      embed({ model: 'gemini-embedding-001', input: 'one text' }),
      channel,
    ) as UpstreamRequest
    expect(JSON.parse(String(single.body))).toEqual({ instances: [{ content: 'one text' }] })
  })

  it('answers the predictions as an OpenAI list, billed by their token counts', () => {
    const request = embed({ encoding_format: 'float' })
    const parsed = vertexAdaptor.parseResponse(answer('embeddings-predict.json'), request)
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(parsed.usage).toMatchObject({ promptTokens: 10, completionTokens: 0, totalTokens: 10 })
    expect(JSON.parse(parsed.body.toString())).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.0094475755, -0.0021553058, -0.015014166, -0.0622009] },
        {
          object: 'embedding',
          index: 1,
          embedding: [-0.015288853, -0.0134052625, 0.0024592234, -0.056612614],
        },
      ],
      model: 'text-embedding-005',
      usage: { prompt_tokens: 10, total_tokens: 10 },
    })
  })

  it('encodes the vectors as base64 float32 when the client asks (the OpenAI SDKs do by default)', () => {
    const parsed = vertexAdaptor.parseResponse(
      answer('embeddings-predict.json'),
      embed({ encoding_format: 'base64' }),
    )
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    const first = JSON.parse(parsed.body.toString()).data[0].embedding as string
    const bytes = Buffer.from(first, 'base64')
    const floats = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4))
    expect(floats.map((value) => Number(value.toFixed(6)))).toEqual([
      0.009448, -0.002155, -0.015014, -0.062201,
    ])
  })

  it('leaves the count to the gateway when a prediction has no statistics', () => {
    const body = Buffer.from(JSON.stringify({ predictions: [{ embeddings: { values: [0.1, 0.2] } }] }))
    const parsed = vertexAdaptor.parseResponse({ status: 200, headers: {}, body }, embed({}))
    expect(parsed).toMatchObject({ kind: 'response', usage: undefined })
  })

  it('returns a 400 as an invalid request, moves on after a 429, and refuses an answer without predictions', () => {
    expect(vertexAdaptor.parseResponse(answer('error-400.json', 400), embed({}))).toMatchObject({
      kind: 'error',
      status: 400,
      type: 'invalid_request_error',
      retryable: false,
    })
    expect(vertexAdaptor.parseResponse(answer('error-429.json', 429), embed({}))).toMatchObject({
      kind: 'error',
      status: 429,
      retryable: true,
    })
    const empty = { status: 200, headers: {}, body: Buffer.from('{}') }
    expect(vertexAdaptor.parseResponse(empty, embed({}))).toMatchObject({ kind: 'error', status: 502 })
  })
})
