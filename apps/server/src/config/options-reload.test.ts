import { type MockUpstream, startMockUpstream } from '@one-api/mock-upstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../testing/eventually.ts'
import { ApiClient } from '../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'
import { testDialects } from '../testing/test-databases.ts'

/**
 * Two nodes on one database with no Redis between them, so neither hears the other's announcements:
 * what an option change on A does on B then rests on B re-reading the options every SYNC_FREQUENCY,
 * as it does with Redis too in case an announcement was missed.
 */
describe.each(testDialects())('options re-read every SYNC_FREQUENCY on %s', (dialect) => {
  let mock: MockUpstream
  let a: TestApp
  let b: TestApp
  let rootA: ApiClient

  beforeAll(async () => {
    mock = await startMockUpstream()
    a = await startTestApp(dialect, { SYNC_FREQUENCY: '1' })
    b = await startTestApp(dialect, { SYNC_FREQUENCY: '1' }, { shareDatabaseWith: a })
    rootA = new ApiClient(a.baseUrl)
    await rootA.login('root', ROOT_PASSWORD)
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
    await mock?.close()
  })

  it('applies on B a name and a price set on A, pricing included', async () => {
    const model = 'reload-priced-model'
    const channel = { name: 'reload', type: 50, key: 'k', base_url: `${mock.url}/v1`, models: [model] }
    expect((await rootA.post('/api/channel/', channel)).status).toBe(200)
    const created = await rootA.post('/api/token/', {
      name: 'reload',
      remain_quota: 0,
      unlimited_quota: true,
    })
    const key = created.body.data.key as string
    const chatOnB = async () => {
      const response = await fetch(`${b.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      })
      await response.arrayBuffer()
      return response.status
    }
    const modelsOnB = async () => {
      const response = await fetch(`${b.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
      return ((await response.json()) as { data: Array<{ id: string }> }).data.map((entry) => entry.id)
    }
    await eventually(async () => (await modelsOnB()).includes(model))
    // No price yet: B refuses the model (and remembers that it has none).
    expect(await chatOnB()).not.toBe(200)

    const name = `Reloaded ${Date.now()}`
    expect((await rootA.put('/api/option/', { key: 'SystemName', value: name })).status).toBe(200)
    const ratio = JSON.stringify({ [model]: 1 })
    expect((await rootA.put('/api/option/', { key: 'ModelRatio', value: ratio })).status).toBe(200)

    await eventually(
      async () => (await new ApiClient(b.baseUrl).get('/api/status')).body.data.system_name === name,
    )
    await eventually(async () => (await chatOnB()) === 200)
  })
})
