import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { channelBody, storedAbilities, storedChannels } from '../../testing/channel-fixtures.ts'
import { ApiClient, outcome, REFUSED } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'

describe.each(testDialects())('channel management on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  const changed: string[] = []
  beforeAll(async () => {
    server = await startTestApp(dialect)
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    server.context.bus.subscribe('channel-changed', (id) => changed.push(id))
  })
  afterAll(async () => {
    await server?.close()
  })
  beforeEach(async () => {
    await server.context.db.deleteFrom('abilities').execute()
    await server.context.db.deleteFrom('channels').execute()
    changed.length = 0
  })

  async function create(overrides: Record<string, unknown> = {}): Promise<number> {
    const response = await root.post('/api/channel/', channelBody(overrides))
    expect(response.body, JSON.stringify(response.body)).toMatchObject({ success: true, data: 1 })
    const rows = await storedChannels(server)
    return rows[rows.length - 1].id
  }

  it('creates a channel and never shows its key in list, search or get', async () => {
    const id = await create({
      name: 'main-openai',
      key: 'sk-secret-value-42',
      base_url: 'https://api.example.com///',
      group: 'default, vip ,default',
      models: 'gpt-4o, gpt-4o-mini,,gpt-4o',
      priority: 5,
      weight: 3,
    })
    const [stored] = await storedChannels(server)
    expect(stored).toMatchObject({
      key: 'sk-secret-value-42',
      base_url: 'https://api.example.com',
      group: 'default,vip',
      models: 'gpt-4o,gpt-4o-mini',
      status: 1,
    })
    expect(Number(stored.priority)).toBe(5)
    expect(stored.weight).toBe(3)
    const list = await root.get('/api/channel/?p=0')
    const search = await root.get('/api/channel/search?keyword=main')
    const byKey = await root.get('/api/channel/search?keyword=sk-secret-value-42')
    const byKeyPrefix = await root.get('/api/channel/search?keyword=sk-secret')
    const byId = await root.get(`/api/channel/search?keyword=${id}`)
    const single = await root.get(`/api/channel/${id}`)
    // A key is found only whole: matched by its start, a search told an administrator a key one
    // character at a time.
    expect(byKeyPrefix.body.data).toEqual([])
    for (const rows of [list.body.data, search.body.data, byKey.body.data, byId.body.data]) {
      expect(rows.map((row: { id: number }) => row.id)).toEqual([id])
      expect(rows[0]).not.toHaveProperty('key')
    }
    expect(single.body.data).toMatchObject({ id, name: 'main-openai', group: 'default,vip', priority: 5 })
    expect(single.body.data).not.toHaveProperty('key')
    for (const response of [list, search, byKey, single]) {
      expect(JSON.stringify(response.body)).not.toContain('sk-secret-value-42')
    }
    expect((await root.get('/api/channel/search?keyword=nomatch')).body.data).toEqual([])
    expect(changed).toEqual([String(id)])
    expect(await storedAbilities(server, id)).toEqual([
      { group: 'default', model: 'gpt-4o', channel_id: id, enabled: true, priority: 5 },
      { group: 'default', model: 'gpt-4o-mini', channel_id: id, enabled: true, priority: 5 },
      { group: 'vip', model: 'gpt-4o', channel_id: id, enabled: true, priority: 5 },
      { group: 'vip', model: 'gpt-4o-mini', channel_id: id, enabled: true, priority: 5 },
    ])
  })

  it('pages the list ten at a time, newest first', async () => {
    const ids: number[] = []
    for (let index = 0; index < 12; index++) ids.push(await create({ name: `channel-${index}` }))
    const first = await root.get('/api/channel/?p=0')
    const second = await root.get('/api/channel/?p=1')
    expect(first.body.data.map((row: { id: number }) => row.id)).toEqual(ids.slice(2).reverse())
    expect(second.body.data.map((row: { id: number }) => row.id)).toEqual(ids.slice(0, 2).reverse())
    expect(outcome(await root.get('/api/channel/?p=nonsense'))).toEqual(REFUSED)
    // '_' and '%' in a keyword are literal characters, not wildcards.
    expect((await root.get('/api/channel/search?keyword=channel_')).body.data).toEqual([])
    expect((await root.get('/api/channel/search?keyword=channel-1')).body.data).toHaveLength(3)
  })

  it('creates one channel per key line in one batch', async () => {
    const response = await root.post(
      '/api/channel/',
      channelBody({
        name: 'batch',
        batch: true,
        key: 'sk-one\n\n  sk-two \r\nsk-three\n',
        group: ['default', 'vip'],
      }),
    )
    expect(response.body).toMatchObject({ success: true, data: 3 })
    const rows = await storedChannels(server)
    expect(rows.map((row) => [row.name, row.key])).toEqual([
      ['batch', 'sk-one'],
      ['batch', 'sk-two'],
      ['batch', 'sk-three'],
    ])
    expect(await storedAbilities(server)).toHaveLength(3 * 2 * 2)
    expect(changed).toEqual(rows.map((row) => String(row.id)))
  })

  it('changes status, priority and weight alone and the abilities follow', async () => {
    const id = await create({ priority: 1 })
    changed.length = 0
    const disabled = await root.put('/api/channel/', { id, status: 2 })
    expect(disabled.body).toMatchObject({ success: true, data: { id, status: 2, priority: 1 } })
    expect((await storedAbilities(server, id)).map((row) => row.enabled)).toEqual([false, false])
    const reprioritised = await root.put('/api/channel/', { id, priority: 7, weight: -4 })
    expect(reprioritised.body.data).toMatchObject({ status: 2, priority: 7, weight: 0 })
    expect((await storedAbilities(server, id)).map((row) => [row.enabled, row.priority])).toEqual([
      [false, 7],
      [false, 7],
    ])
    const enabled = await root.put('/api/channel/', { id, status: 1, priority: '' })
    expect(enabled.body.data).toMatchObject({ status: 1, priority: 7 })
    expect((await storedAbilities(server, id)).map((row) => row.enabled)).toEqual([true, true])
    const [stored] = await storedChannels(server)
    expect(stored).toMatchObject({ key: 'sk-test-key-0001', name: 'primary', models: 'gpt-4o,gpt-4o-mini' })
    expect(changed).toEqual([String(id), String(id), String(id)])
  })

  it('indexes hundreds of models per group and keeps them in step with the channel', async () => {
    const models = Array.from({ length: 150 }, (_, index) => `model-${index}`)
    // MySQL compares case-insensitively: both spellings must not collide in the abilities key.
    const id = await create({ models: [...models, 'Model-0'], group: ['default', 'vip'], priority: 4 })
    expect(await storedAbilities(server, id)).toHaveLength(300)
    await root.put('/api/channel/', { id, status: 3 })
    const abilities = await storedAbilities(server, id)
    expect(abilities).toHaveLength(300)
    expect(abilities.every((row) => !row.enabled && row.priority === 4)).toBe(true)
  })

  it('keeps the key on a full update without one and replaces the abilities', async () => {
    const id = await create()
    const loaded = (await root.get(`/api/channel/${id}`)).body.data
    const updated = await root.put('/api/channel/', {
      ...loaded,
      name: 'renamed',
      key: '',
      models: ['claude-3-5-sonnet-20241022'],
      group: 'vip',
      model_mapping: '{"claude-latest": "claude-3-5-sonnet-20241022"}',
    })
    expect(updated.body).toMatchObject({ success: true, data: { id, name: 'renamed', status: 1 } })
    const [stored] = await storedChannels(server)
    expect(stored).toMatchObject({
      key: 'sk-test-key-0001',
      models: 'claude-3-5-sonnet-20241022',
      group: 'vip',
    })
    expect(await storedAbilities(server, id)).toEqual([
      { group: 'vip', model: 'claude-3-5-sonnet-20241022', channel_id: id, enabled: true, priority: 0 },
    ])
    await root.put('/api/channel/', { id, name: 'renamed', key: 'sk-new-key', models: 'gpt-4o' })
    expect((await storedChannels(server))[0]).toMatchObject({
      key: 'sk-new-key',
      group: 'vip',
      models: 'gpt-4o',
    })
    const missing = await root.put('/api/channel/', { id: 999_999, status: 1 })
    expect(outcome(missing)).toEqual(REFUSED)
  })

  it('deletes a channel with its abilities, with or without the trailing slash', async () => {
    const first = await create()
    const second = await create({ name: 'second' })
    expect((await root.delete(`/api/channel/${first}/`)).body).toMatchObject({ success: true })
    expect((await root.delete(`/api/channel/${second}`)).body).toMatchObject({ success: true })
    expect(await storedChannels(server)).toEqual([])
    expect(await storedAbilities(server)).toEqual([])
    expect(outcome(await root.delete(`/api/channel/${first}`))).toEqual(REFUSED)
    expect(outcome(await root.get(`/api/channel/${first}`))).toEqual(REFUSED)
    expect(outcome(await root.get('/api/channel/abc'))).toEqual(REFUSED)
  })

  it('deletes every disabled channel and reports the count', async () => {
    const kept = await create({ name: 'kept' })
    const manual = await create({ name: 'manual' })
    const automatic = await create({ name: 'automatic' })
    await root.put('/api/channel/', { id: manual, status: 2 })
    await root.put('/api/channel/', { id: automatic, status: 3 })
    const response = await root.delete('/api/channel/disabled')
    expect(response.body).toMatchObject({ success: true, data: 2 })
    expect((await storedChannels(server)).map((row) => row.id)).toEqual([kept])
    expect(new Set((await storedAbilities(server)).map((row) => row.channel_id))).toEqual(new Set([kept]))
    expect((await root.delete('/api/channel/disabled')).body.data).toBe(0)
  })

  it('serves the built-in model catalogue and the default models per type', async () => {
    const catalogue = (await root.get('/api/channel/models')).body.data
    const byId = new Map(catalogue.map((model: { id: string }) => [model.id, model]))
    expect(byId.get('gpt-4o')).toEqual({
      id: 'gpt-4o',
      object: 'model',
      created: 1626777600,
      owned_by: 'openai',
    })
    expect(byId.get('claude-3-5-sonnet-20241022')).toMatchObject({ owned_by: 'anthropic' })
    expect(byId.get('deepseek-reasoner')).toMatchObject({ owned_by: 'deepseek' })
    expect(byId.size).toBe(catalogue.length)
    const defaults = (await root.get('/api/models')).body.data
    expect(Object.keys(defaults)).toHaveLength(51)
    expect(defaults['1']).toEqual(expect.arrayContaining(['gpt-3.5-turbo', 'gpt-4o', 'o3-mini', 'whisper-1']))
    expect(defaults['14']).toEqual(expect.arrayContaining(['claude-3-opus-20240229']))
    expect(defaults['24']).toEqual(expect.arrayContaining(['gemini-1.5-pro']))
    expect(defaults['36']).toEqual(['deepseek-chat', 'deepseek-reasoner'])
    expect(defaults['43']).toEqual([])
  })

  it('sorts the list and the search by any of the eight columns, both ways, ties newest first', async () => {
    const a = await create({ name: 'sort-a', priority: 5, type: 1 })
    const b = await create({ name: 'sort-c', priority: 1, type: 50 })
    const c = await create({ name: 'sort-b', priority: 5, type: 14 })
    const ids = async (url: string) => (await root.get(url)).body.data.map((row: { id: number }) => row.id)
    expect(await ids('/api/channel/?p=0')).toEqual([c, b, a])
    expect(await ids('/api/channel/?p=0&sort=name&order=asc')).toEqual([a, c, b])
    expect(await ids('/api/channel/?p=0&sort=name&order=desc')).toEqual([b, c, a])
    expect(await ids('/api/channel/?p=0&sort=priority&order=desc')).toEqual([c, a, b])
    expect(await ids('/api/channel/?p=0&sort=type&order=asc')).toEqual([a, c, b])
    expect(await ids('/api/channel/search?keyword=sort&sort=priority&order=asc')).toEqual([b, c, a])
    for (const sort of ['group', 'status', 'response_time', 'balance', 'id']) {
      expect(await ids(`/api/channel/?p=0&sort=${sort}&order=asc`)).toHaveLength(3)
    }
    const bad = await root.get('/api/channel/?p=0&sort=key')
    expect(bad.body).toMatchObject({ success: false })
    expect(bad.body.message).toContain('sort must be one of id, name, group')
    expect((await root.get('/api/channel/?order=up')).body).toMatchObject({ success: false })
  })

  it('lists the channel types the relay can serve', async () => {
    const response = await root.get('/api/channel/supported_types')
    expect(response.body.success).toBe(true)
    const types: number[] = response.body.data
    expect(types).toEqual(expect.arrayContaining([1, 50, 36]))
    expect(types).not.toContain(0)
    expect(types).toEqual([...types].sort((left, right) => left - right))
  })
})
