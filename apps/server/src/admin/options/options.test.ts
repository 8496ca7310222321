import { DEFAULT_COMPLETION_RATIOS, DEFAULT_MODEL_RATIOS } from '@one-api/contracts/pricing-defaults'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolvePricing } from '../../billing/pricing/resolve-pricing.ts'
import { ApiClient, outcome, REFUSED, registerAndLogin } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'
import { REDIS_URL, testDialects } from '../../testing/test-databases.ts'

describe.each(testDialects())('options on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  beforeAll(async () => {
    server = await startTestApp(dialect)
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
  })
  afterAll(async () => {
    await server?.close()
  })

  const optionValue = async (key: string) =>
    ((await root.get('/api/option/')).body.data as Array<{ key: string; value: string }>).find(
      (entry) => entry.key === key,
    )?.value

  it('lists every option with enable-type values as strings, and never a secret', async () => {
    const list = (await root.get('/api/option/')).body.data as Array<{ key: string; value: unknown }>
    const keys = list.map((entry) => entry.key)
    expect(keys).toEqual(
      expect.arrayContaining([
        'PasswordLoginEnabled',
        'ModelRatio',
        'GroupRatio',
        'SystemName',
        'RetryTimes',
      ]),
    )
    for (const secret of [
      'GitHubClientSecret',
      'SMTPToken',
      'TurnstileSecretKey',
      'WeChatServerToken',
      'MessagePusherToken',
      'LarkClientSecret',
    ]) {
      expect(keys).not.toContain(secret)
    }
    expect(list.find((entry) => entry.key === 'RegisterEnabled')?.value).toBe('true')
    for (const entry of list) expect(typeof entry.value).toBe('string')
  })

  it('stores a secret without ever showing it', async () => {
    const response = await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-secret-value' })
    expect(response.status).toBe(200)
    expect(JSON.stringify(response.body)).not.toContain('smtp-secret-value')
    expect(JSON.stringify((await root.get('/api/option/')).body)).not.toContain('smtp-secret-value')
  })

  it('normalises values: booleans, URLs without trailing slash, JSON ratios', async () => {
    expect((await root.put('/api/option/', { key: 'LogConsumeEnabled', value: false })).status).toBe(200)
    expect(await optionValue('LogConsumeEnabled')).toBe('false')
    await root.put('/api/option/', { key: 'ServerAddress', value: 'https://gateway.example.com/' })
    expect(await optionValue('ServerAddress')).toBe('https://gateway.example.com')
    expect((await new ApiClient(server.baseUrl).get('/api/status')).body.data.server_address).toBe(
      'https://gateway.example.com',
    )
    await root.put('/api/option/', { key: 'ModelRatio', value: '{"my-model": 1.5}' })
    expect(JSON.parse((await optionValue('ModelRatio')) ?? '{}')).toMatchObject({ 'my-model': 1.5 })
    await root.put('/api/option/', { key: 'SystemName', value: 'My Gateway' })
    expect((await new ApiClient(server.baseUrl).get('/api/status')).body.data.system_name).toBe('My Gateway')
  })

  it('lists ModelRatio and CompletionRatio as the whole table in force, built-in prices included', async () => {
    // Before, they were listed as the stored override layer ('{}' on a fresh database), so
    // one-api's console showed an empty price table.
    const table = async (key: string) => JSON.parse((await optionValue(key)) ?? '{}')
    const completion = await table('CompletionRatio')
    expect(completion).toEqual({ ...DEFAULT_COMPLETION_RATIOS, ...completion })
    expect(Object.keys(completion).length).toBeGreaterThanOrEqual(
      Object.keys(DEFAULT_COMPLETION_RATIOS).length,
    )
    expect(completion['deepseek-chat']).toBe(DEFAULT_COMPLETION_RATIOS['deepseek-chat'])

    // A table saved without a built-in model: the model keeps its built-in price, listed and billed.
    await root.put('/api/option/', { key: 'ModelRatio', value: '{"my-model": 1.5, "gpt-4o-mini": 0.2}' })
    const models = await table('ModelRatio')
    expect(models).toEqual({ ...DEFAULT_MODEL_RATIOS, 'my-model': 1.5, 'gpt-4o-mini': 0.2 })
    const price = (model: string) =>
      resolvePricing(model, undefined, 'default', {
        modelRatios: server.context.options.ratios('ModelRatio'),
      })
    expect(price('gpt-4o')?.modelRatio).toBe(DEFAULT_MODEL_RATIOS['gpt-4o'])
    expect(price('gpt-4o-mini')?.modelRatio).toBe(0.2)

    // Saving the table as listed, with one price changed, changes that price alone.
    await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...models, 'gpt-4o': 3 }) })
    expect(await table('ModelRatio')).toEqual({ ...models, 'gpt-4o': 3 })
    expect(price('gpt-4o')?.modelRatio).toBe(3)
    expect(price('my-model')?.modelRatio).toBe(1.5)

    // GroupRatio has no built-in prices beyond its default: a saved table is the whole table.
    await root.put('/api/option/', { key: 'GroupRatio', value: '{"default": 1, "partner": 0.5}' })
    expect(await table('GroupRatio')).toEqual({ default: 1, partner: 0.5 })
    await root.put('/api/option/', { key: 'GroupRatio', value: '{"default": 1, "vip": 1, "svip": 1}' })
    await root.put('/api/option/', { key: 'ModelRatio', value: '{"my-model": 1.5}' })
  })

  it("refuses bad values with one-api's messages and keeps the old value", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ key: 'ModelRatio', value: '{not json' }, /model ratio is not valid JSON/],
      [{ key: 'GroupRatio', value: '[1,2]' }, /group ratio is not valid JSON/],
      [{ key: 'CompletionRatio', value: '{"a": "x"}' }, /completion ratio is not valid JSON/],
      [{ key: 'RetryTimes', value: '-1' }, /non-negative integer/],
      [{ key: 'RetryTimes', value: 'abc' }, /non-negative integer/],
      [{ key: 'RegisterEnabled', value: 'yes' }, /'true' or 'false'/],
      [{ key: 'Theme', value: 'neon' }, /Theme must be one of/],
      [{ key: 'NoSuchOption', value: '1' }, /Unknown option/],
      [{ key: 'GitHubOAuthEnabled', value: 'true' }, /GitHub Client Id/],
      [{ value: '1' }, /key/],
      [{ key: 'SystemName', value: { nested: true } }, /value must be/],
    ]
    for (const [body, message] of cases) {
      const response = await root.put('/api/option/', body)
      expect(outcome(response), JSON.stringify(body)).toEqual(REFUSED)
      expect(response.body.message).toMatch(message)
    }
    expect(JSON.parse((await optionValue('ModelRatio')) ?? '{}')).toMatchObject({ 'my-model': 1.5 })
    expect(await optionValue('RetryTimes')).toBe('0')
    const malformed = await root.request('PUT', '/api/option/', { raw: '{"key":' })
    expect(outcome(malformed)).toEqual(REFUSED)
  })

  it('is root only', async () => {
    const user = await registerAndLogin(server.baseUrl, 'optuser')
    expect(outcome(await user.get('/api/option/'))).toEqual(REFUSED)
    expect(outcome(await user.put('/api/option/', { key: 'SystemName', value: 'hacked' }))).toEqual(REFUSED)
    expect((await new ApiClient(server.baseUrl).get('/api/option/')).status).toBe(401)
    expect(await optionValue('SystemName')).toBe('My Gateway')
  })
})

describe.runIf(REDIS_URL).each(testDialects())('options across two nodes with Redis on %s', (dialect) => {
  let first: TestApp
  let second: TestApp
  beforeAll(async () => {
    first = await startTestApp(dialect, { REDIS_CONN_STRING: REDIS_URL! })
    second = await startTestApp(dialect, { REDIS_CONN_STRING: REDIS_URL! }, { shareDatabaseWith: first })
  })
  afterAll(async () => {
    await second?.close()
    await first?.close()
  })

  it('changes an option on every node at once', async () => {
    const root = new ApiClient(first.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    const name = `Node test ${Date.now()}`
    expect((await root.put('/api/option/', { key: 'SystemName', value: name })).status).toBe(200)
    let seen = ''
    for (let attempt = 0; attempt < 50 && seen !== name; attempt++) {
      seen = (await new ApiClient(second.baseUrl).get('/api/status')).body.data.system_name
      if (seen !== name) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(seen).toBe(name)
  })

  it('shares the session between nodes', async () => {
    const client = new ApiClient(first.baseUrl)
    await client.login('root', ROOT_PASSWORD)
    const other = Object.assign(Object.create(Object.getPrototypeOf(client)), client, {
      baseUrl: second.baseUrl,
    }) as ApiClient
    expect((await other.get('/api/user/self')).body.data.username).toBe('root')
  })
})
