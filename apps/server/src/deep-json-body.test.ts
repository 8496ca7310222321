import { MAX_JSON_DEPTH } from '@one-api/contracts/json-depth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channelBody, countRows } from './testing/channel-fixtures.ts'
import { ApiClient } from './testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from './testing/test-app.ts'

/** JSON text of objects nested `depth` levels deep: `{"a":{"a":...1...}}`. */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
const TOO_DEEP = `The request body nests JSON objects and arrays more than ${MAX_JSON_DEPTH} levels deep`

describe('management requests nested too deep', () => {
  let server: TestApp
  let root: ApiClient
  beforeAll(async () => {
    server = await startTestApp('sqlite')
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
  })
  afterAll(async () => {
    await server?.close()
  })

  /** A channel body with `field` set to raw JSON text. */
  const channelWith = (field: string, json: string) => {
    const body = JSON.stringify(channelBody({ [field]: '__here__' }))
    return body.replace('"__here__"', json)
  }

  it('refuses a deep body with a clear message and stores nothing, wherever the nesting is', async () => {
    const cases = [
      channelWith('config', nested(100_000)),
      channelWith('model_mapping', nested(100_000)),
      channelWith('unknown_field', `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
    ]
    for (const raw of cases) {
      const response = await root.request('POST', '/api/channel/', { raw })
      expect(response.status).toBeLessThan(500)
      expect(response.body).toEqual({ success: false, message: TOO_DEEP })
    }
    const token = await root.request('POST', '/api/token/', {
      raw: `{"name":"deep","remain_quota":1,"x":${nested(100_000)}}`,
    })
    expect(token.body).toEqual({ success: false, message: TOO_DEEP })
    expect(await countRows(server)).toEqual({ channels: 0, abilities: 0 })
  })

  it('refuses JSON carried in a string that nests too deep (a channel config), storing nothing', async () => {
    for (const depth of [100_000, MAX_JSON_DEPTH + 1]) {
      const response = await root.post('/api/channel/', channelBody({ config: nested(depth) }))
      expect(response.status).toBeLessThan(500)
      expect(response.body.success).toBe(false)
      expect(response.body.message).toMatch(/more than 128 levels deep/)
    }
    expect(await countRows(server)).toEqual({ channels: 0, abilities: 0 })
    const accepted = await root.post('/api/channel/', channelBody({ config: nested(MAX_JSON_DEPTH) }))
    expect(accepted.body.success).toBe(true)
  })
})
