import { SPARK_MOCK_KEY } from '@one-api/mock-upstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { RelayFixture } from '../testing/relay-fixture.ts'
import { connectProxy, type TestServer } from '../testing/upstream-servers.ts'

const XUNFEI = 18
const SPARK = 'Spark-Max'

describe('RELAY_PROXY', () => {
  let proxy: TestServer & { tunnels: string[] }
  let fixture: RelayFixture
  let channelId: number
  let sparkChannelId: number
  let key: string

  beforeAll(async () => {
    proxy = await connectProxy('gateway:proxy-password')
    fixture = await RelayFixture.start('sqlite', {
      RELAY_PROXY: proxy.origin.replace('://', '://gateway:proxy-password@'),
    })
    channelId = await fixture.addChannel({ models: ['gpt-4o-mini'] })
    sparkChannelId = await fixture.addChannel({ type: XUNFEI, key: SPARK_MOCK_KEY, models: [SPARK] })
    await fixture.setPrices({ [SPARK]: 1 })
    key = (await fixture.createToken()).key
  })
  afterAll(async () => {
    await fixture.close()
    await proxy.close()
  })

  it('sends relayed calls and channel tests to the upstream through the proxy', async () => {
    const client = fixture.openai(key)
    const answer = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(answer.choices[0]?.message.content).toBeTruthy()
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    })
    const { text } = await readChatStream(stream)
    expect(text).toBeTruthy()
    const tested = await fixture.root.get(`/api/channel/test/${channelId}?model=gpt-4o-mini`)
    expect(tested.body).toMatchObject({ success: true })
    const mockAuthority = new URL(fixture.mock.url).host
    expect(proxy.tunnels.length).toBeGreaterThan(0)
    expect(new Set(proxy.tunnels)).toEqual(new Set([mockAuthority]))
    expect(fixture.mock.requests.length).toBe(3)
  })

  it('opens WebSocket upstreams (Xunfei Spark v1) through the proxy too, for relayed calls and channel tests', async () => {
    const client = fixture.openai(key)
    const mockAuthority = new URL(fixture.mock.url).host
    const before = proxy.tunnels.length
    const answer = await client.chat.completions.create({
      model: SPARK,
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(answer.choices[0]?.message.content).toBe('Hello from the mock upstream')
    const stream = await client.chat.completions.create({
      model: SPARK,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    })
    const { text } = await readChatStream(stream)
    expect(text).toBe('Hello from the mock upstream')
    const tested = await fixture.root.get(`/api/channel/test/${sparkChannelId}`)
    expect(tested.body).toMatchObject({ success: true })
    // One tunnel per WebSocket, to the mock's Spark server, and nothing that went round the proxy.
    expect(proxy.tunnels.slice(before)).toEqual([mockAuthority, mockAuthority, mockAuthority])
  })
})
