import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApiClient, outcome, REFUSED, registerAndLogin } from '../../testing/http-client.ts'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'

const now = () => Math.floor(Date.now() / 1000)

describe.each(testDialects())('tokens on %s', (dialect) => {
  let server: TestApp
  let alice: ApiClient
  const announced: string[] = []
  beforeAll(async () => {
    server = await startTestApp(dialect)
    server.context.bus.subscribe('token-changed', (key) => announced.push(key))
    alice = await registerAndLogin(server.baseUrl, 'alice')
  })
  afterAll(async () => {
    await server?.close()
  })

  const storedTokens = () => server.context.db.selectFrom('tokens').selectAll().orderBy('id').execute()
  const create = async (body: Record<string, unknown>) => {
    const response = await alice.post('/api/token/', body)
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    return response.body.data
  }

  it('creates a token from the console form fields and returns its key bare, as one-api does', async () => {
    const expiry = now() + 3600
    const data = await create({
      name: 'form token',
      remain_quota: 500_000,
      expired_time: expiry,
      unlimited_quota: false,
      models: ' gpt-4o , ,claude-3-haiku,gpt-4o',
      subnet: '10.0.0.0/8, 192.168.1.7,2001:db8::/32',
    })
    expect(data).toMatchObject({
      name: 'form token',
      status: 1,
      used_quota: 0,
      remain_quota: 500_000,
      unlimited_quota: false,
      expired_time: expiry,
      models: 'gpt-4o,claude-3-haiku',
      model_limits_enabled: true,
      model_limits: 'gpt-4o,claude-3-haiku',
      subnet: '10.0.0.0/8,192.168.1.7,2001:db8::/32',
    })
    expect(data.key).toMatch(/^[0-9A-Za-z]{48}$/)
    const stored = (await storedTokens()).find((token) => token.id === data.id)
    expect(stored?.key).toBe(data.key)
    expect(announced).toContain(stored?.key)
    expect((await alice.get(`/api/token/${data.id}`)).body.data).toEqual(data)
  })

  it('creates a token from the model_limits form', async () => {
    const limited = await create({
      name: 'limits form',
      remain_quota: 10,
      expired_time: -1,
      unlimited_quota: true,
      model_limits_enabled: true,
      model_limits: ['gpt-4o-mini', ' o3 '],
    })
    expect(limited).toMatchObject({ models: 'gpt-4o-mini,o3', unlimited_quota: true, expired_time: -1 })
    const open = await create({
      name: 'no limits',
      remain_quota: 0,
      expired_time: -1,
      unlimited_quota: true,
      model_limits_enabled: false,
      model_limits: 'gpt-4o',
    })
    expect(open).toMatchObject({ models: '', model_limits_enabled: false, model_limits: '' })
  })

  it.each([
    [{ remain_quota: 1 }, 'name is required'],
    [{ name: '   ' }, 'name is required'],
    [{ name: 'x'.repeat(31) }, 'at most 30'],
    [{ name: 'n', remain_quota: -1 }, 'must not be negative'],
    [{ name: 'n', remain_quota: 1.5 }, 'integer'],
    [{ name: 'n', remain_quota: '100' }, 'integer'],
    [{ name: 'n', expired_time: 1000 }, 'in the past'],
    [{ name: 'n', expired_time: -5 }, 'unix seconds or -1'],
    [{ name: 'n', expired_time: Date.now() + 60_000 }, 'not milliseconds'],
    [{ name: 'n', subnet: '10.0.0.0/8,300.1.1.1' }, 'invalid subnet: 300.1.1.1'],
    [{ name: 'n', subnet: '10.0.0.0/33' }, 'invalid subnet: 10.0.0.0/33'],
    [{ name: 'n', unlimited_quota: 'yes' }, 'unlimited_quota'],
  ])('refuses a bad token %j and creates nothing', async (body, message) => {
    const before = (await storedTokens()).length
    const response = await alice.post('/api/token/', body)
    expect(outcome(response)).toEqual(REFUSED)
    expect(response.body.success).toBe(false)
    expect(response.body.message).toContain(message)
    expect((await storedTokens()).length).toBe(before)
  })

  it('lists own tokens ten per page in each order', async () => {
    const bob = await registerAndLogin(server.baseUrl, 'bob')
    const made: { id: number; name: string }[] = []
    for (let index = 0; index < 11; index++) {
      const response = await bob.post('/api/token/', { name: `t${index}`, remain_quota: index * 10 })
      made.push(response.body.data)
    }
    // bob's default token (unlimited) plus 11 limited ones; give t3 the most usage.
    await server.context.db
      .updateTable('tokens')
      .set({ used_quota: 999 })
      .where('id', '=', made[3].id)
      .execute()
    const first = (await bob.get('/api/token/?p=0')).body.data
    const second = (await bob.get('/api/token/?p=1')).body.data
    expect(first.map((token: { name: string }) => token.name).slice(0, 3)).toEqual(['t10', 't9', 't8'])
    expect(first).toHaveLength(10)
    expect(second.map((token: { name: string }) => token.name)).toEqual(['t0', 'default'])
    const byRemain = (await bob.get('/api/token/?order=remain_quota')).body.data
    expect(byRemain.map((token: { name: string }) => token.name).slice(0, 3)).toEqual([
      'default',
      't10',
      't9',
    ])
    const byUsed = (await bob.get('/api/token/?order=used_quota')).body.data
    expect(byUsed[0].name).toBe('t3')
    expect(outcome(await bob.get('/api/token/?p=-1'))).toEqual(REFUSED)
    expect(outcome(await bob.get('/api/token/?p=abc'))).toEqual(REFUSED)
  })

  it('searches own tokens by name prefix, matching wildcards literally', async () => {
    await create({ name: 'search-100%' })
    await create({ name: 'search-1000' })
    await create({ name: 'other search' })
    const names = async (keyword: string) =>
      (await alice.get(`/api/token/search?keyword=${encodeURIComponent(keyword)}`)).body.data
        .map((token: { name: string }) => token.name)
        .sort()
    expect(await names('  search-1 ')).toEqual(['search-100%', 'search-1000'])
    expect(await names('search-100%')).toEqual(['search-100%'])
    expect(await names('search_')).toEqual([])
  })

  it('updates every field and toggles the status', async () => {
    const token = await create({ name: 'editable', remain_quota: 5 })
    const update = await alice.put('/api/token/', {
      id: token.id,
      name: 'edited',
      remain_quota: 7,
      expired_time: -1,
      unlimited_quota: false,
      models: ['gpt-4o'],
      subnet: '127.0.0.1',
    })
    expect(update.body.data).toMatchObject({
      name: 'edited',
      remain_quota: 7,
      models: 'gpt-4o',
      subnet: '127.0.0.1',
    })
    expect(update.body.data.key).toBe(token.key)
    const disabled = await alice.put('/api/token/?status_only=true', { id: token.id, status: 2 })
    expect(disabled.body.data.status).toBe(2)
    expect((await alice.put('/api/token/?status_only=1', { id: token.id, status: 1 })).body.data.status).toBe(
      1,
    )
    const bad = await alice.put('/api/token/?status_only=true', { id: token.id, status: 3 })
    expect(outcome(bad)).toEqual(REFUSED)
    const badUpdate = await alice.put('/api/token/', { id: token.id, name: '' })
    expect(outcome(badUpdate)).toEqual(REFUSED)
    expect((await alice.get(`/api/token/${token.id}`)).body.data).toMatchObject({ name: 'edited', status: 1 })
  })

  it('refuses to re-enable an expired token until its expiry is fixed', async () => {
    const token = await create({ name: 'expiring', remain_quota: 5, expired_time: now() + 3600 })
    await server.context.db
      .updateTable('tokens')
      .set({ status: 3, expired_time: now() - 10 })
      .where('id', '=', token.id)
      .execute()
    const refused = await alice.put('/api/token/?status_only=true', { id: token.id, status: 1 })
    expect(outcome(refused)).toEqual(REFUSED)
    expect(refused.body.message).toBe(
      'the token has expired: change its expiry time or set it to never expire first',
    )
    const current = (await alice.get(`/api/token/${token.id}`)).body.data
    // Renaming keeps the (past) expiry and the status.
    const renamed = await alice.put('/api/token/', { ...current, name: 'renamed' })
    expect(renamed.body.data).toMatchObject({ name: 'renamed', status: 3 })
    const stillExpired = await alice.put('/api/token/', { ...current, status: 1 })
    expect(outcome(stillExpired)).toEqual(REFUSED)
    const fixed = await alice.put('/api/token/', { ...current, expired_time: -1, status: 1 })
    expect(fixed.body.data).toMatchObject({ status: 1, expired_time: -1 })
  })

  it('refuses to re-enable an exhausted token until its quota is fixed', async () => {
    const token = await create({ name: 'spent', remain_quota: 5 })
    await server.context.db
      .updateTable('tokens')
      .set({ status: 4, remain_quota: 0, used_quota: 5 })
      .where('id', '=', token.id)
      .execute()
    const refused = await alice.put('/api/token/?status_only=true', { id: token.id, status: 1 })
    expect(outcome(refused)).toEqual(REFUSED)
    expect(refused.body.message).toBe(
      'the token quota is used up: raise its quota or make it unlimited first',
    )
    expect((await alice.get(`/api/token/${token.id}`)).body.data.status).toBe(4)
    const current = (await alice.get(`/api/token/${token.id}`)).body.data
    const unlimited = await alice.put('/api/token/', { ...current, unlimited_quota: true, status: 1 })
    expect(unlimited.body.data).toMatchObject({ status: 1, unlimited_quota: true, used_quota: 5 })
  })

  /** What an edit form loaded, and the same form without the balance (a form that never showed it). */
  const loadForm = async (id: number) => {
    const form = (await alice.get(`/api/token/${id}`)).body.data
    const { remain_quota: _balance, ...withoutBalance } = form
    return { form, withoutBalance }
  }
  const setStored = (id: number, values: { status?: number; remain_quota?: number; used_quota?: number }) =>
    server.context.db.updateTable('tokens').set(values).where('id', '=', id).execute()

  it('keeps what a token spent since its edit form loaded when the form leaves remain_quota out', async () => {
    const token = await create({ name: 'spender', remain_quota: 1000 })
    const { form, withoutBalance } = await loadForm(token.id)
    // Requests spend 100 after the form loaded, as the ledger would.
    await setStored(token.id, { remain_quota: 900, used_quota: 100 })
    const renamed = await alice.put('/api/token/', { ...withoutBalance, name: 'renamed spender' })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    expect(renamed.body.data).toMatchObject({ name: 'renamed spender', remain_quota: 900, used_quota: 100 })
    expect((await storedTokens()).find((row) => row.id === token.id)).toMatchObject({
      name: 'renamed spender',
      remain_quota: 900,
    })
    // A form that sends the balance still sets it, as one-api's clients (which always send it) expect.
    const reset = await alice.put('/api/token/', { ...form, name: 'reset spender' })
    expect(reset.status).toBe(200)
    expect(reset.body.data).toMatchObject({ name: 'reset spender', remain_quota: 1000, used_quota: 100 })
  })

  it('judges re-enabling by the stored balance when remain_quota is left out', async () => {
    const token = await create({ name: 'drained', remain_quota: 5 })
    await setStored(token.id, { status: 4, remain_quota: 0, used_quota: 5 })
    const { withoutBalance } = await loadForm(token.id)
    const refused = await alice.put('/api/token/', { ...withoutBalance, status: 1 })
    expect(outcome(refused)).toEqual(REFUSED)
    expect(refused.body.message).toBe(
      'the token quota is used up: raise its quota or make it unlimited first',
    )
    expect((await alice.get(`/api/token/${token.id}`)).body.data).toMatchObject({
      status: 4,
      remain_quota: 0,
    })
    // Topped up since (by another form): the stale form may now enable it and keeps that balance.
    await setStored(token.id, { remain_quota: 50 })
    const enabled = await alice.put('/api/token/', { ...withoutBalance, status: 1 })
    expect(enabled.status).toBe(200)
    expect(enabled.body.data).toMatchObject({ status: 1, remain_quota: 50, used_quota: 5 })
  })

  it('limits an unlimited token at its stored balance less holds when remain_quota is left out', async () => {
    const token = await create({ name: 'was unlimited', remain_quota: 3000, unlimited_quota: true })
    const { user_id } = await server.context.db
      .selectFrom('tokens')
      .select('user_id')
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow()
    // A request in flight on another node holds 400 it took while the token was unlimited.
    await server.context.db
      .insertInto('quota_holds')
      .values({ node_id: 'another-node', token_id: token.id, user_id, amount: 400 })
      .execute()
    try {
      const { withoutBalance } = await loadForm(token.id)
      const limited = await alice.put('/api/token/', { ...withoutBalance, unlimited_quota: false })
      expect(limited.status, JSON.stringify(limited.body)).toBe(200)
      expect(limited.body.data).toMatchObject({ unlimited_quota: false, remain_quota: 2600 })
    } finally {
      await server.context.db.deleteFrom('quota_holds').where('node_id', '=', 'another-node').execute()
    }
  })

  it('refuses a bad remain_quota in an edit and changes nothing, while one left out is fine', async () => {
    const token = await create({ name: 'checked', remain_quota: 40 })
    const { form, withoutBalance } = await loadForm(token.id)
    const cases: Array<[unknown, string]> = [
      [-1, 'remain_quota must not be negative'],
      [1.5, 'remain_quota must be an integer'],
      ['100', 'remain_quota must be an integer'],
      [null, 'remain_quota must be an integer'],
    ]
    for (const [remain_quota, message] of cases) {
      const response = await alice.put('/api/token/', { ...form, name: 'changed', remain_quota })
      expect(outcome(response), JSON.stringify(remain_quota)).toEqual(REFUSED)
      expect(response.body).toMatchObject({ success: false, message: expect.stringContaining(message) })
    }
    expect((await alice.get(`/api/token/${token.id}`)).body.data).toEqual(form)
    const left = await alice.put('/api/token/', { ...withoutBalance, name: 'changed' })
    expect(left.status).toBe(200)
    expect(left.body.data).toMatchObject({ name: 'changed', remain_quota: 40 })
  })

  it('deletes a token with or without the trailing slash', async () => {
    const first = await create({ name: 'gone-1' })
    const second = await create({ name: 'gone-2' })
    announced.length = 0
    expect((await alice.delete(`/api/token/${first.id}`)).body.success).toBe(true)
    expect((await alice.delete(`/api/token/${second.id}/`)).body.success).toBe(true)
    expect(announced).toEqual([first.key, second.key])
    expect(outcome(await alice.get(`/api/token/${first.id}`))).toEqual(REFUSED)
    expect(outcome(await alice.delete(`/api/token/${second.id}/`))).toEqual(REFUSED)
    expect(outcome(await alice.get('/api/token/abc'))).toEqual(REFUSED)
  })
})
