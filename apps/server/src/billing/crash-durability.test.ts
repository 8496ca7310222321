import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from '../../../../tools/mock-upstream/src/server.ts'
import { REQUEST_ID_HEADER } from '../http/request-id.ts'
import { type GatewayProcess, startGateway } from '../testing/gateway-process.ts'
import { expectBooksBalanced, openScratch, readBooks, setUpBilling } from '../testing/ledger-books.ts'
import { createScratchDatabase, type TestDialect, testDialects } from '../testing/test-databases.ts'

/**
 * A gateway killed with SIGKILL in the middle of a burst (no shutdown work of any kind), then
 * started again on the same database: once the quota its dead self held is given back, the books
 * agree, and every request whose answer a client received whole is in the logs.
 */

const MODEL = 'gpt-4o-mini+delay-ms=15'
const REQUESTS = 400
const CONCURRENCY = 30
/** The burst's answers received before the kill. */
const KILL_AFTER_ANSWERED = 120
const TOKEN_QUOTA = 50_000_000

interface Sent {
  requestId?: string
  /** The client received the whole answer: JSON that parses, or a stream to its [DONE] and end. */
  complete: boolean
}

async function send(baseUrl: string, key: string, stream: boolean): Promise<Sent> {
  try {
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: MODEL,
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        messages: [{ role: 'user', content: 'say hello to the ledger' }],
      }),
    })
    const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined
    const text = await response.text()
    if (response.status !== 200) return { requestId, complete: false }
    if (stream) return { requestId, complete: text.trimEnd().endsWith('data: [DONE]') }
    JSON.parse(text)
    return { requestId, complete: true }
  } catch {
    return { complete: false }
  }
}

/** Sends the burst, `CONCURRENCY` at a time, calling `onAnswered` with each complete answer's count. */
async function burst(baseUrl: string, key: string, onAnswered: (count: number) => void): Promise<Sent[]> {
  const results: Sent[] = []
  let next = 0
  let answered = 0
  const worker = async () => {
    while (next < REQUESTS) {
      const index = next++
      const sent = await send(baseUrl, key, index % 2 === 0)
      results.push(sent)
      if (sent.complete) onAnswered(++answered)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return results
}

describe.each(testDialects())('a gateway killed mid-burst on %s', (dialect: TestDialect) => {
  let mock: MockUpstream
  const gateways: GatewayProcess[] = []

  beforeAll(async () => {
    mock = await startMockUpstream()
  })
  afterAll(async () => {
    for (const gateway of gateways) await gateway.kill()
    await mock?.close()
  })

  it('keeps every answered request charged and logged, and the books agree', async () => {
    const database = await createScratchDatabase(dialect, mkdtempSync(join(tmpdir(), 'one-api-crash-')))
    const first = await startGateway(database)
    gateways.push(first)
    const db = openScratch(database)
    try {
      const setup = await setUpBilling(first.baseUrl, db, `${mock.url}/v1`, MODEL, TOKEN_QUOTA)
      const before = await readBooks(db, setup.tokenId, setup.channelId)
      const initial = { userQuota: before.userQuota + before.userUsed, tokenQuota: TOKEN_QUOTA }

      let killed: Promise<void> | undefined
      const sent = await burst(first.baseUrl, setup.key, (answered) => {
        if (answered >= KILL_AFTER_ANSWERED) killed ??= first.kill()
      })
      await killed
      // Started again on the same database: what the dead process held comes back at once.
      const second = await startGateway(database, { QUOTA_HOLD_TIMEOUT: '1' })
      gateways.push(second)
      let books = await readBooks(db, setup.tokenId, setup.channelId)
      for (let wait = 0; wait < 100 && books.holds > 0; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        books = await readBooks(db, setup.tokenId, setup.channelId)
      }
      await second.stop()
      books = await readBooks(db, setup.tokenId, setup.channelId)

      const complete = sent.filter((request) => request.complete)
      const unlogged = complete.filter((request) => !books.requestIds.has(request.requestId!))
      // The figures of this run, for the decision record (docs/decisions/charge-and-log-together.md).
      console.log(
        `[crash ${dialect}] sent ${sent.length}, answered ${complete.length}, logs ${books.logs}, ` +
          `request_count ${books.requestCount}, answered without log ${unlogged.length}, ` +
          `user used ${books.userUsed} / logs ${books.logQuota}, token used ${books.tokenUsed}, ` +
          `channel used ${books.channelUsed}, user remain+used-initial ${books.userQuota + books.userUsed - initial.userQuota}, ` +
          `token remain+used-initial ${books.tokenRemain + books.tokenUsed - initial.tokenQuota}, holds ${books.holds}`,
      )
      expect(complete.length).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERED)
      expect(complete.length).toBeLessThan(REQUESTS)
      expect(unlogged.map((request) => request.requestId)).toEqual([])
      expectBooksBalanced(books, initial)
    } finally {
      await db.close()
      await database.drop()
    }
  }, 120_000)
})
