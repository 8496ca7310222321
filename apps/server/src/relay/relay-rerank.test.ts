/**
 * `POST /v1/rerank` through the whole gateway: served by a Cohere channel (Rerank v2, answered in
 * the Jina shape) and passed through to an OpenAI-compatible rerank server; billed by the tokens
 * the upstream reports, or by the query and documents counted locally (Cohere reports search
 * units), and logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectedQuota, REQUEST_ID, RelayFixture } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const ON_COHERE = 'rerank-v3.5'
const ON_JINA = 'jina-reranker-v2-base-multilingual'
const RATIO = 2
const documents = [
  'Paris is the capital of France',
  'Berlin is in Germany',
  { text: 'The capital of Italy is Rome' },
]

describe.each(testDialects())('the rerank API through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let key: string

  const rerank = (body: Record<string, unknown>, token = key) =>
    fetch(`${fixture.baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({ type: 35, key: 'co-rerank-key', models: [ON_COHERE] })
    await fixture.addChannel({ key: 'sk-jina-key', models: [ON_JINA] })
    await fixture.setPrices({ [ON_COHERE]: RATIO, [ON_JINA]: RATIO }, { [ON_COHERE]: 1, [ON_JINA]: 1 })
    key = (await fixture.createToken()).key
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('ranks on a Cohere channel, documents returned when asked, billed by the texts counted locally', async () => {
    const response = await rerank({
      model: ON_COHERE,
      query: 'capital France',
      documents,
      top_n: 2,
      return_documents: true,
    })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.results).toEqual([
      { index: 0, relevance_score: 1, document: { text: 'Paris is the capital of France' } },
      { index: 2, relevance_score: 0.5, document: { text: 'The capital of Italy is Rome' } },
    ])
    const upstream = fixture.requestsFor('co-rerank-key').at(-1)!
    expect(upstream.path).toBe('/v2/rerank')
    expect(upstream.json).toEqual({
      model: ON_COHERE,
      query: 'capital France',
      documents: ['Paris is the capital of France', 'Berlin is in Germany', 'The capital of Italy is Rome'],
      top_n: 2,
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log.model_name).toBe(ON_COHERE)
    expect(log.prompt_tokens).toBeGreaterThanOrEqual(16)
    expect(log.completion_tokens).toBe(0)
    expect(log.quota).toBe(expectedQuota(log.prompt_tokens, 0, RATIO, 1))
  })

  it('passes a request through to an OpenAI-compatible rerank server, billed by its reported tokens', async () => {
    const response = await rerank({ model: ON_JINA, query: 'capital France', documents, top_n: 1 })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({
      model: ON_JINA,
      usage: { total_tokens: 18 },
      results: [{ index: 0, relevance_score: 1, document: { text: 'Paris is the capital of France' } }],
    })
    const upstream = fixture.requestsFor('sk-jina-key').at(-1)!
    expect(upstream.path).toBe('/v1/rerank')
    expect(upstream.json).toEqual({ model: ON_JINA, query: 'capital France', documents, top_n: 1 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: ON_JINA, prompt_tokens: 18, completion_tokens: 0 })
    expect(log.quota).toBe(expectedQuota(18, 0, RATIO, 1))
  })

  it('refuses a request without documents, in OpenAI error shape', async () => {
    const response = await rerank({ model: ON_JINA, query: 'capital' })
    expect(response.status).toBe(400)
    expect((await response.json()).error).toMatchObject({ param: 'documents', type: 'invalid_request_error' })
  })
})
