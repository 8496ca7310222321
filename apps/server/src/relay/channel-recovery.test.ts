import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RelayFixture, relayFailure } from '../testing/relay-fixture.ts'

// A channel that failed three times in a row cools down (5 s and more); these are the ways it comes
// back sooner, and what /metrics says of the requests that moved away from it.
const MODELS = ['cr-enabled', 'cr-tested', 'cr-alone', 'cr-left']

describe('channels coming back from a cool-down', () => {
  let fixture: RelayFixture
  let client: OpenAI
  const count = (key: string) => fixture.requestsFor(key).length
  const chat = (model: string, signal?: AbortSignal) =>
    client.chat.completions.create(
      { model, messages: [{ role: 'user', content: 'one two three' }] },
      { signal, maxRetries: 0 },
    )

  /** A primary (priority 10), cooling down after three failures, and a backup (priority 0). */
  async function coolingPrimary(model: string) {
    const { primary } = await fixture.addPrimaryAndBackup(model)
    fixture.mock.addFault({ match: { keyContains: `sk-${model}-primary` }, status: 500, times: 3 })
    for (let request = 0; request < 3; request++) await chat(model)
    // It answers again, but is cooling down: the backup serves.
    await chat(model)
    expect([count(`sk-${model}-primary`), count(`sk-${model}-backup`)]).toEqual([3, 4])
    return primary
  }

  beforeAll(async () => {
    fixture = await RelayFixture.start('sqlite')
    await fixture.priceModels(MODELS, 1)
    await fixture.setOption('RetryTimes', 3)
    client = fixture.openai((await fixture.createToken()).key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('uses a cooling channel at once when an administrator enables it again', async () => {
    // Before, it stayed out of use until its cool-down ran out (up to 5 minutes), enabled or not.
    const primary = await coolingPrimary('cr-enabled')
    await fixture.updateChannel(primary, { status: 2 })
    await fixture.updateChannel(primary, { status: 1 })
    await chat('cr-enabled')
    expect(count('sk-cr-enabled-primary')).toBe(4)
  })

  it('uses a cooling channel at once when it passes a channel test', async () => {
    const primary = await coolingPrimary('cr-tested')
    const tested = await fixture.root.get(`/api/channel/test/${primary}?model=cr-tested`)
    expect(tested.body).toMatchObject({ success: true })
    await chat('cr-tested')
    expect(count('sk-cr-tested-primary')).toBe(5)
  })

  it('counts no retry in /metrics when no other channel was left to try', async () => {
    // RetryTimes is 3 and the model has one channel: nothing moved anywhere.
    const alone = await fixture.addChannel({ models: ['cr-alone'], key: 'sk-cr-alone' })
    fixture.mock.addFault({ match: { keyContains: 'sk-cr-alone' }, status: 500, times: 1 })
    expect(await relayFailure(chat('cr-alone'))).toMatchObject({ status: 500 })
    const metrics = await (await fetch(`${fixture.baseUrl}/metrics`)).text()
    expect(metrics).toMatch(new RegExp(`oneapi_relay_requests_total\\{channel="${alone}",model="cr-alone"`))
    expect(metrics).not.toMatch(new RegExp(`oneapi_relay_retries_total\\{channel="${alone}"`))
  })

  it('counts a client that left while a channel worked on its request under that channel', async () => {
    // It was counted under channel "none", which /metrics keeps for requests no channel was tried for.
    const channel = await fixture.addChannel({ models: ['cr-left'], key: 'sk-cr-left' })
    fixture.mock.addFault({ match: { keyContains: 'sk-cr-left' }, delayMs: 2_000 })
    const leaving = new AbortController()
    const asked = chat('cr-left', leaving.signal).catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 300))
    leaving.abort()
    await asked
    await new Promise((resolve) => setTimeout(resolve, 200))
    const metrics = await (await fetch(`${fixture.baseUrl}/metrics`)).text()
    expect(metrics).toMatch(
      new RegExp(`oneapi_relay_requests_total\\{channel="${channel}",model="cr-left",status="499"\\} 1\\n`),
    )
  })
})
