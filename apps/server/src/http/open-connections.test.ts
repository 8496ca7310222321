import { connect, type Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { startTestApp } from '../testing/test-app.ts'

/** Resolves with how long `work` took, or 'hung' when it did not finish within `limitMs`. */
async function timed(work: Promise<unknown>, limitMs: number): Promise<number | 'hung'> {
  const started = Date.now()
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), limitMs)
  })
  const result = await Promise.race([work.then(() => Date.now() - started), limit])
  clearTimeout(timer)
  return result
}

describe('closing the server', () => {
  it('does not wait for a connection that never sent a request', async () => {
    // Node's fetch opens such a connection after a request it aborted; the server's close then
    // waited for it until the client went away (a test run hung on it for minutes).
    const server = await startTestApp('sqlite')
    const { port } = new URL(server.baseUrl)
    const silent: Socket = connect(Number(port), '127.0.0.1')
    await new Promise((resolve) => silent.once('connect', resolve))
    const closedByServer = new Promise((resolve) => silent.once('close', resolve))
    const took = await timed(server.close(), 5_000)
    silent.destroy()
    expect(took).not.toBe('hung')
    expect(took).toBeLessThan(2_000)
    await closedByServer
  })

  it('still closes at once with an idle keep-alive connection open', async () => {
    const server = await startTestApp('sqlite')
    const idle = await fetch(`${server.baseUrl}/api/status`)
    expect(idle.status).toBe(200)
    await idle.text()
    const took = await timed(server.close(), 5_000)
    expect(took).not.toBe('hung')
    expect(took).toBeLessThan(2_000)
  })
})
