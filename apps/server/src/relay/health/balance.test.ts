import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RoutedChannel } from '../routing/routed-channel.ts'
import { balanceBase, fetchBalance, UnsupportedBalance } from './balance.ts'

const KEY = 'sk-balance-secret-42'

/** What each provider's balance endpoint answers, in its documented shape. */
const ANSWERS: Record<string, unknown> = {
  '/v1/dashboard/billing/subscription': { hard_limit_usd: 120, has_payment_method: false },
  '/v1/dashboard/billing/usage': { total_usage: 2050 },
  '/dashboard/billing/credit_grants': { total_available: 17.25 },
  '/sb-api/user/status': { msg: 'ok', data: { credit: '123456.5' } },
  '/api/report/getUserOverview': { success: true, message: '', data: { totalPoints: 88.8 } },
  '/api/v1/credits': { data: { total_credits: 50, total_usage: 12.5 } },
  '/user/balance': {
    is_available: true,
    balance_infos: [
      { currency: 'USD', total_balance: '1.00' },
      { currency: 'CNY', total_balance: '42.30' },
    ],
  },
  '/v1/user/info': { code: 20000, data: { totalBalance: '9.75' } },
  '/v1/users/me/balance': {
    code: 0,
    data: { available_balance: 49.58894, voucher_balance: 46.58893, cash_balance: 3.00001 },
    scode: '0x0',
    status: true,
  },
}

describe('channel balance queries', () => {
  let stub: Server
  let base: string
  let failing: string | undefined
  let failureBody = ''
  let failureStatus = 200
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = []

  beforeAll(async () => {
    stub = createServer((request, response) => {
      const url = request.url ?? '/'
      seen.push({ url, headers: request.headers })
      const path = url.split('?')[0]!
      response.setHeader('content-type', 'application/json')
      if (path === failing) {
        response.statusCode = failureStatus
        response.end(failureBody)
        return
      }
      const answer = ANSWERS[path]
      response.statusCode = answer ? 200 : 404
      response.end(JSON.stringify(answer ?? { error: 'not found' }))
    })
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`
  })
  afterAll(() => {
    stub?.close()
  })

  const channel = (type: number, baseUrl = base): RoutedChannel => ({
    id: 1,
    name: 'c',
    type,
    key: KEY,
    status: 1,
    baseUrl,
    other: '',
    config: {},
    modelMapping: {},
    systemPrompt: '',
    weight: 0,
    priority: 0,
  })
  const lastRequest = () => seen.at(-1)!

  it.each([
    // type, balance, path asked last, how the key travels
    [1, 120 - 20.5, '/v1/dashboard/billing/usage', 'bearer'],
    [4, 17.25, '/dashboard/billing/credit_grants', 'bearer'],
    [5, 123456.5, '/sb-api/user/status', 'query'],
    [10, 88.8, '/api/report/getUserOverview', 'api-key'],
    [12, 17.25, '/dashboard/billing/credit_grants', 'bearer'],
    [13, 17.25, '/dashboard/billing/credit_grants', 'bearer'],
    [20, 37.5, '/api/v1/credits', 'bearer'],
    [36, 42.3, '/user/balance', 'bearer'],
    [44, 9.75, '/v1/user/info', 'bearer'],
    [25, 49.58894, '/v1/users/me/balance', 'bearer'],
  ] as const)('type %i reads %d from %s', async (type, balance, path, keyIn) => {
    expect(await fetchBalance(channel(type))).toBeCloseTo(balance, 6)
    const { url, headers } = lastRequest()
    expect(url.split('?')[0]).toBe(path)
    if (keyIn === 'bearer') expect(headers.authorization).toBe(`Bearer ${KEY}`)
    if (keyIn === 'api-key') expect(headers['api-key']).toBe(KEY)
    if (keyIn === 'query') expect(new URL(url, base).searchParams.get('api_key')).toBe(KEY)
  })

  it('asks OpenAI for the usage of the last 100 days when there is no payment method', async () => {
    await fetchBalance(channel(1))
    const usage = new URL(lastRequest().url, base)
    const days =
      (Date.parse(usage.searchParams.get('end_date')!) - Date.parse(usage.searchParams.get('start_date')!)) /
      86_400_000
    expect(days).toBe(100)
  })

  it('says "not supported" for types without a balance API', async () => {
    await expect(fetchBalance(channel(14))).rejects.toBeInstanceOf(UnsupportedBalance)
    await expect(fetchBalance(channel(3))).rejects.toBeInstanceOf(UnsupportedBalance)
  })

  it("reports a provider's refusal with its message and never the key", async () => {
    failing = '/api/report/getUserOverview'
    failureBody = JSON.stringify({ success: false, message: 'invalid key', error_code: 401 })
    const aiProxy = await fetchBalance(channel(10)).catch((error: Error) => error)
    expect(String(aiProxy)).toMatch(/code 401, invalid key/)
    failing = '/sb-api/user/status'
    failureBody = JSON.stringify({ msg: 'key not found', data: null })
    const openAiSb = await fetchBalance(channel(5)).catch((error: Error) => error)
    expect(String(openAiSb)).toMatch(/key not found/)
    expect(String(openAiSb)).not.toContain(KEY)
    // A provider quoting the key it refused: the error says so without the key.
    failing = '/v1/dashboard/billing/subscription'
    failureStatus = 401
    failureBody = JSON.stringify({ error: { message: `Incorrect API key provided: Bearer ${KEY}` } })
    const quoted = await fetchBalance(channel(1)).catch((error: Error) => error)
    failureStatus = 200
    expect(String(quoted)).toContain('Incorrect API key provided: Bearer [channel key]')
    expect(String(quoted)).not.toContain(KEY)
    failing = '/sb-api/user/status'
    failureBody = JSON.stringify({ msg: 'ok', data: { credit: 'lots' } })
    expect(String(await fetchBalance(channel(5)).catch((error: Error) => error))).toMatch(/no amount/)
    failing = undefined
  })

  it.each([
    // type, the path whose answer lacks the amount, that answer
    [1, '/v1/dashboard/billing/subscription', { has_payment_method: false }],
    [1, '/v1/dashboard/billing/usage', { object: 'list' }],
    [4, '/dashboard/billing/credit_grants', { object: 'credit_summary' }],
    [13, '/dashboard/billing/credit_grants', { total_available: null }],
    [20, '/api/v1/credits', { data: { total_credits: 50 } }],
    [36, '/user/balance', { is_available: true, balance_infos: [] }],
    [44, '/v1/user/info', { code: 20000, data: { totalBalance: '' } }],
    [44, '/v1/user/info', { code: 20000, data: { totalBalance: true } }],
  ] as const)(
    'type %i: an answer from %s without the amount is an error, not a balance of 0',
    async (type, path, answer) => {
      failing = path
      failureBody = JSON.stringify(answer)
      try {
        const error = await fetchBalance(channel(type)).catch((caught: Error) => caught)
        expect(error).toBeInstanceOf(Error)
        expect(String(error)).toMatch(/no amount/)
      } finally {
        failing = undefined
      }
    },
  )

  it("asks the provider's balance host for a channel on its relay host, and a mirror itself", () => {
    expect(balanceBase({ type: 10, baseUrl: 'https://api.aiproxy.io' })).toBe('https://aiproxy.io')
    expect(balanceBase({ type: 10, baseUrl: '' })).toBe('https://aiproxy.io')
    expect(balanceBase({ type: 5, baseUrl: 'https://mirror.example/v1' })).toBe('https://mirror.example')
    expect(balanceBase({ type: 20, baseUrl: 'https://openrouter.ai/api' })).toBe('https://openrouter.ai')
    expect(balanceBase({ type: 8, baseUrl: '' })).toBe('')
  })
})
