import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'

/**
 * Contract tests of the calls one-api's own web console makes, written from one-api's documented
 * behaviour: each sends the request as that console sends it and checks the reply shape it reads.
 * The console reads `success` and `message` of a 200 reply, goes back to sign-in on 401, shows
 * "Request failed with status code N" for any other status, and adds `sk-` to token keys itself.
 * The calls covered are listed in CONSOLE_CALLS; a call added here must be added there.
 */
export const CONSOLE_CALLS = [
  'GET /api/status',
  'POST /api/user/register (aff_code null)',
  'POST /api/user/login (wrong password, then right)',
  'GET /api/user/self (signed out: 401)',
  'GET /api/user/self',
  'GET /api/user/token',
  'GET /api/option/ (as a normal user: refused with 200)',
  'GET /api/option/ (price tables whole), then PUT /api/option/ (ModelRatio)',
  'GET /api/token/?p=0',
  'POST /api/token/',
  'PUT /api/token/?status_only=1',
  'DELETE /api/token/:id/ (Content-Type: application/json, no body)',
  'PUT /api/user/ (id and quota only)',
  'POST /api/redemption/',
  'PUT /api/redemption/ (a name longer than a new code may have)',
  'POST /api/topup',
  'GET /api/channel/update_balance/:id/',
  'DELETE /api/channel/:id/',
  'GET /api/log/self/stat',
] as const

const JSON_HEADER = { 'content-type': 'application/json' }

describe("one-api's console against this server", () => {
  let server: TestApp
  let root: ApiClient
  let member: ApiClient
  let memberId: number
  beforeAll(async () => {
    server = await startTestApp('sqlite')
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    member = new ApiClient(server.baseUrl)
  })
  afterAll(async () => {
    await server?.close()
  })
  const covered = new Set<string>()
  const call = (name: (typeof CONSOLE_CALLS)[number], body: () => Promise<void>) =>
    it(name, async () => {
      await body()
      covered.add(name)
    })

  call('GET /api/status', async () => {
    const response = await new ApiClient(server.baseUrl).get('/api/status')
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      success: true,
      data: expect.objectContaining({ system_name: expect.any(String), quota_per_unit: expect.any(Number) }),
    })
  })

  call('POST /api/user/register (aff_code null)', async () => {
    const response = await member.post('/api/user/register', {
      username: 'consoleuser',
      password: 'password-123',
      password2: 'password-123',
      email: '',
      verification_code: '',
      aff_code: null,
    })
    expect(response.status).toBe(200)
    expect(response.body.success).toBe(true)
  })

  call('POST /api/user/login (wrong password, then right)', async () => {
    const wrong = await member.post('/api/user/login', {
      username: 'consoleuser',
      password: 'wrong-password',
    })
    // 200, not 401: the console would take a 401 for an expired session.
    expect(wrong.status).toBe(200)
    expect(wrong.body).toEqual({ success: false, message: expect.any(String) })
    const right = await member.post('/api/user/login', { username: 'consoleuser', password: 'password-123' })
    expect(right.status).toBe(200)
    expect(right.body).toMatchObject({
      success: true,
      data: {
        id: expect.any(Number),
        username: 'consoleuser',
        display_name: expect.any(String),
        role: 1,
        status: 1,
      },
    })
    memberId = right.body.data.id
  })

  call('GET /api/user/self (signed out: 401)', async () => {
    const response = await new ApiClient(server.baseUrl).get('/api/user/self')
    expect(response.status).toBe(401)
    expect(response.body.success).toBe(false)
  })

  call('GET /api/user/self', async () => {
    const response = await member.get('/api/user/self')
    expect(response.body).toMatchObject({
      success: true,
      data: { id: memberId, username: 'consoleuser', quota: expect.any(Number), group: 'default' },
    })
    expect(response.body.data).not.toHaveProperty('password')
  })

  call('GET /api/user/token', async () => {
    const response = await member.get('/api/user/token')
    expect(response.body).toMatchObject({ success: true, data: expect.stringMatching(/^[0-9a-f]{32}$/) })
  })

  call('GET /api/option/ (as a normal user: refused with 200)', async () => {
    const response = await member.get('/api/option/')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: false, message: expect.any(String) })
  })

  call('GET /api/option/ (price tables whole), then PUT /api/option/ (ModelRatio)', async () => {
    // The console's operation settings list the price tables as pretty-printed JSON to edit, and
    // save one back whole as a JSON string.
    const options = async () =>
      new Map(
        ((await root.get('/api/option/')).body.data as Array<{ key: string; value: string }>).map((entry) => [
          entry.key,
          entry.value,
        ]),
      )
    const listed = await options()
    const modelRatio = JSON.parse(listed.get('ModelRatio') ?? '{}')
    expect(modelRatio).toMatchObject({ 'gpt-4o': expect.any(Number), 'gpt-3.5-turbo': expect.any(Number) })
    expect(Object.keys(JSON.parse(listed.get('CompletionRatio') ?? '{}')).length).toBeGreaterThan(0)
    expect(JSON.parse(listed.get('GroupRatio') ?? '{}')).toEqual({ default: 1, vip: 1, svip: 1 })
    const edited = JSON.stringify({ ...modelRatio, 'console-model': 7 }, null, 2)
    const saved = await root.put('/api/option/', { key: 'ModelRatio', value: edited })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ success: true })
    expect(JSON.parse((await options()).get('ModelRatio') ?? '{}')).toEqual({
      ...modelRatio,
      'console-model': 7,
    })
  })

  call('GET /api/token/?p=0', async () => {
    const response = await member.get('/api/token/?p=0')
    expect(response.body.success).toBe(true)
    const [token] = response.body.data
    // Bare: the console shows and copies `sk-` + key.
    expect(token).toMatchObject({
      id: expect.any(Number),
      name: 'default',
      key: expect.stringMatching(/^[0-9A-Za-z]{48}$/),
    })
    expect(token).toMatchObject({
      status: 1,
      remain_quota: expect.any(Number),
      unlimited_quota: true,
      expired_time: -1,
    })
  })

  call('POST /api/token/', async () => {
    const response = await member.post('/api/token/', {
      name: 'console token',
      remain_quota: 500000,
      expired_time: -1,
      unlimited_quota: false,
      models: '',
      subnet: '',
    })
    expect(response.body.success).toBe(true)
  })

  call('PUT /api/token/?status_only=1', async () => {
    const [token] = (await member.get('/api/token/search?keyword=console')).body.data
    const response = await member.put('/api/token/?status_only=1', { id: token.id, status: 2 })
    expect(response.body).toMatchObject({ success: true, data: { id: token.id, status: 2 } })
  })

  call('DELETE /api/token/:id/ (Content-Type: application/json, no body)', async () => {
    const [token] = (await member.get('/api/token/search?keyword=console')).body.data
    const response = await member.request('DELETE', `/api/token/${token.id}/`, { headers: JSON_HEADER })
    expect(response.status).toBe(200)
    expect(response.body.success).toBe(true)
    expect((await member.get('/api/token/search?keyword=console')).body.data).toEqual([])
  })

  call('PUT /api/user/ (id and quota only)', async () => {
    const response = await root.put('/api/user/', { id: memberId, quota: 777 })
    expect(response.body).toMatchObject({ success: true })
    const user = (await root.get(`/api/user/${memberId}`)).body.data
    expect(user).toMatchObject({ username: 'consoleuser', group: 'default', quota: 777 })
  })

  call('POST /api/redemption/', async () => {
    const response = await root.post('/api/redemption/', { name: 'console', quota: 100000, count: 2 })
    expect(response.body).toMatchObject({
      success: true,
      data: [expect.stringMatching(/^[0-9a-f]{32}$/), expect.any(String)],
    })
    const tooLong = await root.post('/api/redemption/', { name: 'x'.repeat(21), quota: 1, count: 1 })
    expect(tooLong.body.success).toBe(false)
  })

  call('PUT /api/redemption/ (a name longer than a new code may have)', async () => {
    const [code] = (await root.get('/api/redemption/?p=0')).body.data
    const response = await root.put('/api/redemption/', { ...code, name: 'a name of twenty-five ch' })
    expect(response.body).toMatchObject({ success: true })
  })

  call('POST /api/topup', async () => {
    const response = await root.post('/api/topup', { user_id: memberId, quota: 1000, remark: 'console' })
    expect(response.body).toMatchObject({ success: true })
    expect((await member.get('/api/user/self')).body.data.quota).toBe(1777)
  })

  call('GET /api/channel/update_balance/:id/', async () => {
    const created = await root.post('/api/channel/', {
      type: 14,
      name: 'console channel',
      key: 'sk-console',
      models: 'claude-3-haiku',
      group: 'default',
    })
    expect(created.body.success).toBe(true)
    const [channel] = (await root.get('/api/channel/?p=0')).body.data
    const withSlash = await root.get(`/api/channel/update_balance/${channel.id}/`)
    const without = await root.get(`/api/channel/update_balance/${channel.id}`)
    expect(withSlash.status).toBe(200)
    expect(withSlash.body).toEqual(without.body)
    expect(withSlash.body).toMatchObject({ success: false, message: expect.any(String) })
  })

  call('DELETE /api/channel/:id/', async () => {
    const [channel] = (await root.get('/api/channel/?p=0')).body.data
    const response = await root.request('DELETE', `/api/channel/${channel.id}/`, { headers: JSON_HEADER })
    expect(response.body).toMatchObject({ success: true })
  })

  call('GET /api/log/self/stat', async () => {
    const response = await member.get(
      '/api/log/self/stat?type=0&token_name=&model_name=&start_timestamp=0&end_timestamp=',
    )
    expect(response.body).toMatchObject({ success: true, data: { quota: expect.any(Number) } })
  })

  it('covers every listed call', () => {
    expect([...covered].sort()).toEqual([...CONSOLE_CALLS].sort())
  })
})
