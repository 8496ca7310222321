import { Role } from '@one-api/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '../../testing/http-client.ts'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'
import { createSignedInUser, signInAsRoot, type TestUser } from '../../testing/user-fixtures.ts'

describe.each(testDialects())('the models page price list on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  let admin: TestUser
  let member: TestUser
  beforeAll(async () => {
    server = await startTestApp(dialect)
    root = await signInAsRoot(server)
    admin = await createSignedInUser(server, 'priceadmin', Role.Admin)
    member = await createSignedInUser(server, 'pricemember')
    const channels = [
      {
        type: 1,
        name: 'cheap-openai',
        models: 'gpt-4o,dall-e-3,tts-1,price-test-unpriced',
        group: 'default',
      },
      {
        type: 1,
        name: 'mapped-openai',
        models: 'gpt-4o',
        group: 'default',
        model_mapping: '{"gpt-4o":"gpt-4"}',
      },
      { type: 1, name: 'vip-only', models: 'vip-only-model', group: 'vip' },
    ]
    for (const channel of channels) {
      const created = await root.post('/api/channel/', { ...channel, key: 'sk-test' })
      expect(created.body.success, created.body.message).toBe(true)
    }
    const ratios = { ModelRatio: '{"gpt-4o":1.25}', GroupRatio: '{"default":0.5,"vip":1}' }
    for (const [key, value] of Object.entries(ratios)) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true)
    }
  })
  afterAll(async () => {
    await server?.close()
  })

  it('keeps the plain list of names without ?prices=true', async () => {
    const names = await member.client.get('/api/user/available_models')
    expect(names.body.data).toEqual(['dall-e-3', 'gpt-4o', 'price-test-unpriced', 'tts-1'])
  })

  it('prices every model of the group after the group ratio, the dearest channel winning', async () => {
    const reply = await member.client.get('/api/user/available_models?prices=true')
    expect(reply.body.success).toBe(true)
    const byModel = Object.fromEntries(
      (reply.body.data as { model: string }[]).map((entry) => [entry.model, entry]),
    )
    expect(Object.keys(byModel)).toEqual(['dall-e-3', 'gpt-4o', 'price-test-unpriced', 'tts-1'])
    // gpt-4o is redirected to gpt-4 (ratio 15, completion 2) on one channel: the dearer price shows.
    expect(byModel['gpt-4o']).toEqual({
      model: 'gpt-4o',
      unit: 'token',
      model_ratio: 15,
      completion_ratio: 2,
      group_ratio: 0.5,
      input: 15,
      output: 30,
      cached_input: 7.5,
    })
    // dall-e-3: $0.04 a standard image at list price, half for this group.
    expect(byModel['dall-e-3']).toMatchObject({ unit: 'image', input: 0.02, output: null })
    // tts-1: $15 per 1M characters at list price.
    expect(byModel['tts-1']).toMatchObject({ unit: 'character', input: 7.5 })
    expect(byModel['price-test-unpriced']).toMatchObject({ model_ratio: null, input: null })
    expect(byModel['gpt-4o']).not.toHaveProperty('channels')
  })

  it('shows administrators the channels serving each model', async () => {
    const reply = await admin.client.get('/api/user/available_models?prices=true')
    const gpt = (reply.body.data as { model: string; channels: { name: string; type: number }[] }[]).find(
      (entry) => entry.model === 'gpt-4o',
    )
    expect(gpt?.channels.map((channel) => channel.name)).toEqual(['cheap-openai', 'mapped-openai'])
    expect(gpt?.channels[0]?.type).toBe(1)
  })

  it('leaves out disabled channels and other groups', async () => {
    const list = await root.get('/api/channel/search?keyword=mapped-openai')
    const id = (list.body.data as { id: number }[])[0]?.id
    expect((await root.put('/api/channel/', { id, status: 2 })).body.success).toBe(true)
    const reply = await member.client.get('/api/user/available_models?prices=true')
    const gpt = (reply.body.data as { model: string; model_ratio: number }[]).find(
      (entry) => entry.model === 'gpt-4o',
    )
    expect(gpt?.model_ratio).toBe(1.25)
    expect((reply.body.data as { model: string }[]).map((entry) => entry.model)).not.toContain(
      'vip-only-model',
    )
  })
})
