import { Role } from '@one-api/contracts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { channelBody, countRows, storedAbilities, storedChannels } from '../../testing/channel-fixtures.ts'
import { ApiClient, outcome, REFUSED, registerAndLogin } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'

describe.each(testDialects())('channel rules and permissions on %s', (dialect) => {
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
  beforeEach(async () => {
    await server.context.db.deleteFrom('abilities').execute()
    await server.context.db.deleteFrom('channels').execute()
  })

  it('refuses every invalid channel with its message and stores nothing', async () => {
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ name: '' }, 'please fill in channel name and channel key'],
      [{ name: '   ' }, 'please fill in channel name and channel key'],
      [{ key: '' }, 'please fill in channel name and channel key'],
      [{ key: undefined }, 'please fill in channel name and channel key'],
      [{ models: [] }, 'please select at least one model'],
      [{ models: ' , ' }, 'please select at least one model'],
      [{ model_mapping: '{not json' }, 'model mapping must be valid JSON'],
      [{ model_mapping: '["gpt-4"]' }, 'model mapping must be valid JSON'],
      [{ model_mapping: '{"gpt-4": 4}' }, 'model mapping must be valid JSON'],
      [{ type: 999 }, 'unknown channel type'],
      [{ type: 0 }, 'unknown channel type'],
      [{ type: '1' }, /type/],
      [{ config: '[1, 2]' }, 'config must be a JSON object'],
      [{ config: '{oops' }, 'config must be a JSON object'],
      [{ priority: 'high' }, 'priority must be an integer'],
      [{ weight: 1.5 }, 'weight must be an integer'],
      [{ status: 7 }, /status must be 1/],
      [{ base_url: 'ftp://example.com' }, /base URL must start with http/],
      [{ models: [`m${'x'.repeat(200)}`] }, /at most 191 characters/],
      [{ group: ['g'.repeat(65)] }, /at most 64 characters/],
      [{ key: 'k'.repeat(16_385) }, /at most 16384 characters/],
      [{ name: 42 }, /name/],
      [{ models: 17 }, /models/],
    ]
    for (const [overrides, message] of cases) {
      const response = await root.post('/api/channel/', channelBody(overrides))
      expect(outcome(response), JSON.stringify(overrides).slice(0, 80)).toEqual(REFUSED)
      expect(response.body.success).toBe(false)
      if (typeof message === 'string') expect(response.body.message).toBe(message)
      else expect(response.body.message).toMatch(message)
    }
    const malformed = await root.request('POST', '/api/channel/', { raw: '{"name": ' })
    expect(outcome(malformed)).toEqual(REFUSED)
    expect(await countRows(server)).toEqual({ channels: 0, abilities: 0 })
  })

  it('refuses an invalid update and leaves the channel and its abilities as they were', async () => {
    await root.post('/api/channel/', channelBody({ priority: 2 }))
    const [before] = await storedChannels(server)
    const abilitiesBefore = await storedAbilities(server)
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ id: before.id, models: [] }, 'please select at least one model'],
      [{ id: before.id, model_mapping: 'nope' }, 'model mapping must be valid JSON'],
      [{ id: before.id, status: 0 }, /status must be 1/],
      [{ id: before.id, key: 'sk-a\nsk-b' }, /single key/],
      [{ id: before.id }, /nothing to update/],
      [{ status: 1 }, 'channel id is required'],
      [{ id: 424_242, name: 'ghost' }, 'channel not found'],
    ]
    for (const [body, message] of cases) {
      const response = await root.put('/api/channel/', body)
      expect(outcome(response), JSON.stringify(body)).toEqual(REFUSED)
      if (typeof message === 'string') expect(response.body.message).toBe(message)
      else expect(response.body.message).toMatch(message)
    }
    expect(await storedChannels(server)).toEqual([before])
    expect(await storedAbilities(server)).toEqual(abilitiesBefore)
  })

  it('applies the form defaults: Azure version, groups, blank numbers, no models for Proxy', async () => {
    await root.post(
      '/api/channel/',
      channelBody({ type: 3, name: 'azure', other: '', group: [], priority: '' }),
    )
    await root.post('/api/channel/', channelBody({ type: 3, name: 'azure-pinned', other: '2024-10-21' }))
    await root.post('/api/channel/', channelBody({ type: 43, name: 'proxy', models: [], weight: -3 }))
    const rows = await storedChannels(server)
    expect(rows.map((row) => [row.name, row.other, row.group, Number(row.priority), row.weight])).toEqual([
      ['azure', '2024-03-01-preview', 'default', 0, 0],
      ['azure-pinned', '2024-10-21', 'default', 0, 0],
      ['proxy', '', 'default', 0, 0],
    ])
    expect(await storedAbilities(server, rows[2].id)).toEqual([])
  })

  it('composes the key of AWS and Vertex AI channels from their config and hides the secrets', async () => {
    const aws = { region: 'us-east-1', ak: 'AKIAEXAMPLE', sk: 'aws-secret-key' }
    const vertex = {
      region: 'us-central1',
      vertex_ai_project_id: 'my-project',
      vertex_ai_adc: '{"type":"x"}',
    }
    expect(
      (await root.post('/api/channel/', channelBody({ type: 33, key: '', config: aws }))).body.data,
    ).toBe(1)
    const vertexBody = channelBody({ type: 42, name: 'vertex', key: '', config: JSON.stringify(vertex) })
    expect((await root.post('/api/channel/', vertexBody)).body.data).toBe(1)
    const incomplete = await root.post(
      '/api/channel/',
      channelBody({ type: 33, key: '', config: { region: 'x' } }),
    )
    expect(incomplete.body.message).toBe('please fill in channel name and channel key')
    const [awsRow, vertexRow] = await storedChannels(server)
    expect(awsRow.key).toBe('AKIAEXAMPLE|aws-secret-key|us-east-1')
    expect(vertexRow.key).toBe('us-central1|my-project|{"type":"x"}')
    const shown = await root.get(`/api/channel/${awsRow.id}`)
    expect(JSON.parse(shown.body.data.config)).toEqual({ region: 'us-east-1', ak: 'AKIAEXAMPLE', sk: '' })
    expect(JSON.stringify((await root.get('/api/channel/?p=0')).body)).not.toMatch(
      /aws-secret-key|"type\\":\\"x/,
    )
    // The form comes back with the secret blank: the stored one is kept and the key re-composed.
    const moved = await root.put('/api/channel/', {
      ...shown.body.data,
      config: { ...aws, sk: '', region: 'eu-west-1' },
    })
    expect(moved.body.success).toBe(true)
    const [updated] = await storedChannels(server)
    expect(updated.key).toBe('AKIAEXAMPLE|aws-secret-key|eu-west-1')
    expect(JSON.parse(updated.config ?? '')).toMatchObject({ sk: 'aws-secret-key', region: 'eu-west-1' })
  })

  it('lets admins in, refuses normal users (200, success false) and anonymous callers with 401', async () => {
    await root.post('/api/channel/', channelBody())
    const [channel] = await storedChannels(server)
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/channel/?p=0'],
      ['GET', '/api/channel/search?keyword=primary'],
      ['GET', '/api/channel/models'],
      ['GET', `/api/channel/${channel.id}`],
      ['POST', '/api/channel/', channelBody({ name: 'intruder' })],
      ['PUT', '/api/channel/', { id: channel.id, priority: 3 }],
      ['DELETE', '/api/channel/disabled'],
      ['DELETE', `/api/channel/${channel.id}/`],
    ]
    const user = await registerAndLogin(server.baseUrl, 'plainuser')
    const anonymous = new ApiClient(server.baseUrl)
    for (const [method, path, json] of calls) {
      expect(outcome(await user.request(method, path, { json })), `${method} ${path}`).toEqual(REFUSED)
      expect((await anonymous.request(method, path, { json })).status, `${method} ${path}`).toBe(401)
    }
    expect(await storedChannels(server)).toMatchObject([{ id: channel.id, status: 1, name: 'primary' }])
    expect((await user.get('/api/models')).status).toBe(200)
    expect((await anonymous.get('/api/models')).status).toBe(401)
    const admin = await registerAndLogin(server.baseUrl, 'channeladm')
    await server.context.db
      .updateTable('users')
      .set({ role: Role.Admin })
      .where('username', '=', 'channeladm')
      .execute()
    for (const [method, path, json] of calls) {
      const response = await admin.request(method, path, { json })
      expect(response.status, `${method} ${path}`).toBe(200)
      expect(response.body.success).toBe(true)
    }
  })
})
