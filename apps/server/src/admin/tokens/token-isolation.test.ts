import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, outcome, REFUSED, registerAndLogin } from '../../testing/http-client.ts'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'

/** No token route lets one user see, change or delete another user's token. */
describe.each(testDialects())('token isolation on %s', (dialect) => {
  let server: TestApp
  let owner: ApiClient
  let intruder: ApiClient
  let victim: { id: number; key: string; name: string }
  beforeAll(async () => {
    server = await startTestApp(dialect)
    owner = await registerAndLogin(server.baseUrl, 'owner')
    intruder = await registerAndLogin(server.baseUrl, 'intruder')
    victim = (await owner.post('/api/token/', { name: 'private-token', remain_quota: 100 })).body.data
  })
  afterAll(async () => {
    await server?.close()
  })

  const victimRow = () =>
    server.context.db.selectFrom('tokens').selectAll().where('id', '=', victim.id).executeTakeFirst()

  it('answers 404 for a foreign id exactly as for a missing one', async () => {
    const missing = 999_999
    for (const id of [victim.id, missing]) {
      const reads = [
        await intruder.get(`/api/token/${id}`),
        await intruder.delete(`/api/token/${id}`),
        await intruder.delete(`/api/token/${id}/`),
        await intruder.put('/api/token/', {
          id,
          name: 'hijacked',
          remain_quota: 1,
          expired_time: -1,
          unlimited_quota: true,
        }),
        await intruder.put('/api/token/?status_only=true', { id, status: 2 }),
      ]
      for (const response of reads) {
        expect(outcome(response)).toEqual(REFUSED)
        expect(response.body).toEqual({ success: false, message: 'Token not found' })
      }
    }
    expect(await victimRow()).toMatchObject({ name: 'private-token', status: 1, remain_quota: 100 })
  })

  it("never lists or finds another user's tokens", async () => {
    const list = (await intruder.get('/api/token/?p=0')).body.data
    expect(list.map((token: { name: string }) => token.name)).toEqual(['default'])
    for (const order of ['remain_quota', 'used_quota']) {
      const ordered = (await intruder.get(`/api/token/?order=${order}`)).body.data
      expect(ordered.map((token: { name: string }) => token.name)).toEqual(['default'])
    }
    expect((await intruder.get('/api/token/search?keyword=private')).body.data).toEqual([])
    expect((await intruder.get('/api/token/search?keyword=')).body.data).toHaveLength(1)
    const ownerSearch = (await owner.get('/api/token/search?keyword=private')).body.data
    expect(ownerSearch.map((token: { id: number }) => token.id)).toEqual([victim.id])
  })

  it('ignores a user_id smuggled into a create or update body', async () => {
    const ownerId = (await owner.get('/api/user/self')).body.data.id
    const created = await intruder.post('/api/token/', { name: 'mine', user_id: ownerId })
    const row = await server.context.db
      .selectFrom('tokens')
      .select('user_id')
      .where('id', '=', created.body.data.id)
      .executeTakeFirstOrThrow()
    expect(row.user_id).not.toBe(ownerId)
    expect((await owner.get('/api/token/search?keyword=mine')).body.data).toEqual([])
  })

  it('requires a signed-in user on every token route', async () => {
    const anonymous = new ApiClient(server.baseUrl)
    const responses = [
      await anonymous.get('/api/token/'),
      await anonymous.get('/api/token/search?keyword=p'),
      await anonymous.get(`/api/token/${victim.id}`),
      await anonymous.post('/api/token/', { name: 'anon' }),
      await anonymous.put('/api/token/', { id: victim.id, name: 'anon' }),
      await anonymous.delete(`/api/token/${victim.id}`),
    ]
    for (const response of responses) expect(response.status).toBe(401)
    expect(await victimRow()).toMatchObject({ name: 'private-token' })
  })
})
