import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUEST_ID, RelayFixture } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'
import { MAX_BILLED_TOKENS } from './usage-bounds.ts'

/**
 * An upstream that lies about its usage: the counts it reports, by model, as JSON literals. The
 * prompt is always 3 tokens; the answer's text is "hi there".
 */
const LIES: Record<string, string> = {
  'liar-9e18': '9e18',
  'liar-1e19': '1e19',
  'liar-negative': '-5',
  'liar-fraction': '1.5',
  'liar-nan': '"NaN"',
  honest: '7',
}

function answer(model: string, stream: boolean): string {
  const completion = LIES[model] ?? '7'
  const usage = `{"prompt_tokens":3,"completion_tokens":${completion},"total_tokens":${completion}}`
  const base = `"id":"chatcmpl-lie","created":1,"model":"${model}"`
  if (!stream) {
    return `{${base},"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi there"},"finish_reason":"stop"}],"usage":${usage}}`
  }
  const chunk = (rest: string) => `data: {${base},"object":"chat.completion.chunk",${rest}}\n\n`
  return (
    chunk('"choices":[{"index":0,"delta":{"role":"assistant","content":"hi there"},"finish_reason":null}]') +
    chunk('"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]') +
    chunk(`"choices":[],"usage":${usage}`) +
    'data: [DONE]\n\n'
  )
}

function startLyingUpstream(): Promise<Server> {
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on('end', () => {
      const json = JSON.parse(body) as { model: string; stream?: boolean }
      response.writeHead(200, {
        'content-type': json.stream ? 'text/event-stream' : 'application/json',
      })
      response.end(answer(json.model, json.stream === true))
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

describe.each(testDialects())('usage an upstream lies about, on %s', (dialect) => {
  let fixture: RelayFixture
  let upstream: Server
  let key: string
  let tokenId: number
  let channelId: number
  const TOKEN_QUOTA = 100_000_000

  beforeAll(async () => {
    upstream = await startLyingUpstream()
    fixture = await RelayFixture.start(dialect)
    const models = Object.keys(LIES)
    channelId = await fixture.addChannel({
      models,
      base_url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
    })
    await fixture.setPrices(
      Object.fromEntries(models.map((model) => [model, 1])),
      Object.fromEntries(models.map((model) => [model, 1])),
    )
    const token = await fixture.createToken({ remain_quota: TOKEN_QUOTA })
    key = token.key
    tokenId = token.id
  })
  afterAll(async () => {
    await fixture?.close()
    await new Promise((resolve) => upstream?.close(resolve))
  })

  async function chat(model: string, extra: Record<string, unknown> = {}) {
    const response = await fetch(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }], ...extra }),
    })
    await response.text()
    expect(response.status).toBe(200)
    return fixture.logFor(response.headers.get(REQUEST_ID))
  }

  it.each([
    ['liar-9e18', false],
    ['liar-1e19', true],
  ] as const)(
    'bills %s (stream: %s) at most the fixed ceiling, logs it, and keeps the columns whole',
    async (model, stream) => {
      const before = await fixture.balances(1, tokenId)
      const log = await chat(model, stream ? { stream: true, stream_options: { include_usage: true } } : {})
      // 3 prompt tokens and the ceiling's completion tokens, at ratio 1.
      expect(log.completion_tokens).toBe(MAX_BILLED_TOKENS)
      expect(log.quota).toBe(MAX_BILLED_TOKENS + 3)
      expect(log.content).toContain('more than the request allows')
      const after = await fixture.balances(1, tokenId)
      expect(after.user.used_quota - before.user.used_quota).toBe(log.quota)
      expect(before.token.remain_quota - after.token.remain_quota).toBe(log.quota)
      for (const value of [after.user.quota, after.user.used_quota, after.token.remain_quota]) {
        expect(Number.isSafeInteger(value)).toBe(true)
      }
    },
  )

  it("bounds the completion by the request's max tokens plus its prompt", async () => {
    const log = await chat('liar-1e19', { max_tokens: 50 })
    expect(log.completion_tokens).toBeGreaterThanOrEqual(50)
    expect(log.completion_tokens).toBeLessThanOrEqual(50 + 20)
    expect(log.quota).toBe(log.prompt_tokens + log.completion_tokens)
  })

  it.each([
    ['liar-negative', 2],
    ['liar-nan', 2],
    ['liar-fraction', 1],
  ])('bills %s by a count it can trust', async (model, completion) => {
    const log = await chat(model)
    // A negative or non-numeric count is counted locally ("hi there"); a fraction is cut to whole.
    expect(log.completion_tokens).toBe(completion)
    expect(log.quota).toBe(3 + completion)
  })

  it('charges later requests normally, and the books agree', async () => {
    const before = await fixture.balances(1, tokenId)
    const log = await chat('honest')
    expect(log.quota).toBe(10)
    const after = await fixture.balances(1, tokenId)
    expect(after.user.used_quota - before.user.used_quota).toBe(10)
    expect(after.user.request_count - before.user.request_count).toBe(1)
    const logs = await fixture.consumeLogs({ userId: 1 })
    const logged = logs.reduce((sum, row) => sum + row.quota, 0)
    expect(after.user.used_quota).toBe(logged)
    expect(after.token.used_quota).toBe(logged)
    expect(after.token.remain_quota + after.token.used_quota).toBe(TOKEN_QUOTA)
    expect(await fixture.channelUsedQuota(channelId)).toBe(logged)
    if (dialect === 'sqlite') {
      // No float reached an integer column.
      const { rows } = await sql<{ kinds: string }>`
        select group_concat(distinct typeof(quota) || typeof(used_quota)) as kinds from users`.execute(
        fixture.db,
      )
      expect(rows[0]!.kinds).toBe('integerinteger')
    }
  })
})
