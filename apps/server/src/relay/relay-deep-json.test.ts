import { MAX_JSON_DEPTH } from '@one-api/contracts/json-depth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUEST_ID, RelayFixture } from '../testing/relay-fixture.ts'

/** JSON text of objects nested `depth` levels deep: `{"a":{"a":...1...}}`, 6 bytes a level. */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
const DEEP = 100_000

describe('request bodies nested too deep', () => {
  let fixture: RelayFixture
  let key: string
  let tokenId: number

  beforeAll(async () => {
    fixture = await RelayFixture.start('sqlite')
    await fixture.addChannel({ models: ['gpt-4o-mini', 'text-embedding-3-small'] })
    const token = await fixture.createToken({ remain_quota: 1_000_000 })
    key = token.key
    tokenId = token.id
  })
  afterAll(async () => {
    await fixture?.close()
  })

  async function relay(path: string, body: string) {
    const response = await fetch(`${fixture.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    })
    const json = (await response.json()) as { error?: Record<string, unknown>; choices?: unknown[] }
    return { status: response.status, json, requestId: response.headers.get(REQUEST_ID) }
  }

  const chatWithTools = (tools: string) =>
    `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"tools":[${tools}]}`

  it('refuses 0.6 MB of tools nested 100,000 levels with a clear 400, reserving and billing nothing', async () => {
    const before = await fixture.tokenQuota(tokenId)
    const upstreamCalls = fixture.mock.requests.length
    const body = chatWithTools(nested(DEEP))
    expect(body.length).toBeGreaterThan(600_000)
    const refused = await relay('/v1/chat/completions', body)
    expect(refused.status).toBe(400)
    expect(refused.json.error).toEqual({
      message: `The request body nests JSON objects and arrays more than ${MAX_JSON_DEPTH} levels deep (request id: ${refused.requestId})`,
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_request',
    })
    expect(fixture.mock.requests.length).toBe(upstreamCalls)
    expect(await fixture.tokenQuota(tokenId)).toEqual(before)
    expect(await fixture.consumeLogs({ requestId: refused.requestId ?? '' })).toHaveLength(0)
    // The gateway goes on serving.
    const served = await relay('/v1/chat/completions', chatWithTools(''))
    expect(served.status).toBe(200)
    expect(served.json.choices).toHaveLength(1)
  })

  it('refuses deep nesting anywhere in the body, arrays as well as objects, on every JSON endpoint', async () => {
    const deepArray = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`
    const embeddings = await relay(
      '/v1/embeddings',
      `{"model":"text-embedding-3-small","input":${deepArray}}`,
    )
    expect(embeddings.status).toBe(400)
    const completions = await relay(
      '/v1/completions',
      `{"model":"gpt-4o-mini","prompt":"x","x":${nested(5000)}}`,
    )
    expect(completions.status).toBe(400)
    const size = await relay(
      '/v1/images/generations',
      `{"model":"dall-e-3","prompt":"x","size":${deepArray}}`,
    )
    expect(size.status).toBe(400)
    for (const answer of [embeddings, completions, size])
      expect(answer.json.error?.code).toBe('invalid_request')
  })

  it(`serves a body nested exactly ${MAX_JSON_DEPTH} levels deep`, async () => {
    // The body is level 1, tools level 2, so the tool may nest MAX_JSON_DEPTH - 2 levels.
    const served = await relay('/v1/chat/completions', chatWithTools(nested(MAX_JSON_DEPTH - 2)))
    expect(served.status).toBe(200)
    const refused = await relay('/v1/chat/completions', chatWithTools(nested(MAX_JSON_DEPTH - 1)))
    expect(refused.status).toBe(400)
  })
})
