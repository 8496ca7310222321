import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { eventually } from './testing/eventually.ts'
import { freePort } from './testing/free-port.ts'
import { COMPILED_SERVER, REPOSITORY_ROOT } from './testing/server-process.ts'

const SHUTDOWN_TIMEOUT = 1
/** docs/operations.md: after SIGTERM the process ends within 2 × SHUTDOWN_TIMEOUT + 10 s. */
const SHUTDOWN_DEADLINE_MS = (2 * SHUTDOWN_TIMEOUT + 10) * 1000

interface ServerProcess {
  child: ChildProcess
  baseUrl: string
  exited: Promise<number | null>
}

/** The real server with its standard output on a pipe this test holds the reading end of. */
async function startServer(): Promise<ServerProcess> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, COMPILED_SERVER, {
    cwd: REPOSITORY_ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'one-api-log-reader-')), 'one-api.db'),
      INITIAL_ROOT_PASSWORD: 'root-password-1',
      // Every request is logged: plenty of lines for a reader to fall behind on.
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT: String(SHUTDOWN_TIMEOUT),
      GLOBAL_API_RATE_LIMIT: '0',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  child.stdout!.on('data', () => {})
  await eventually(
    () =>
      fetch(`${baseUrl}/api/status`).then(
        (response) => response.ok,
        () => false,
      ),
    60_000,
    100,
  )
  return { child, baseUrl, exited }
}

/** GET /api/status; `padding` lengthens the URL, and so the request's log lines. */
async function status(baseUrl: string, padding = 0): Promise<number> {
  const response = await fetch(`${baseUrl}/api/status${padding ? `?padding=${'x'.repeat(padding)}` : ''}`)
  await response.arrayBuffer()
  return response.status
}

async function droppedLines(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text()
  const match = /^oneapi_log_lines_dropped_total (\d+)$/m.exec(text)
  if (!match) throw new Error('no oneapi_log_lines_dropped_total in /metrics')
  return Number(match[1])
}

/** Milliseconds from SIGTERM to the exit, and the exit code; fails past the documented deadline. */
async function terminate(server: ServerProcess): Promise<{ code: number | null; milliseconds: number }> {
  const started = Date.now()
  server.child.kill('SIGTERM')
  const code = await Promise.race([
    server.exited,
    new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), SHUTDOWN_DEADLINE_MS + 2000)),
  ])
  if (code === 'running') throw new Error('the server was still running past its shutdown deadline')
  return { code, milliseconds: Date.now() - started }
}

describe('a server whose log reader breaks', () => {
  const servers: ServerProcess[] = []
  afterAll(() => {
    for (const server of servers) server.child.kill('SIGKILL')
  })

  it('keeps serving when its log reader dies, counts the lost lines in /metrics, and stops on SIGTERM', async () => {
    const server = await startServer()
    servers.push(server)
    expect(await droppedLines(server.baseUrl)).toBe(0)
    server.child.stdout!.destroy()
    for (let index = 0; index < 20; index++) expect(await status(server.baseUrl)).toBe(200)
    // Each request logs its arrival and its answer.
    await eventually(async () => (await droppedLines(server.baseUrl)) >= 40, 5000)
    const { code, milliseconds } = await terminate(server)
    expect(code).toBe(0)
    expect(milliseconds).toBeLessThan(SHUTDOWN_DEADLINE_MS)
  }, 60_000)

  it('keeps serving while its log reader stops reading, and stops on SIGTERM whether the reader comes back or dies', async () => {
    for (const readerDies of [false, true]) {
      const server = await startServer()
      servers.push(server)
      server.child.stdout!.pause()
      // 1.6 MB of log lines: far more than the pipe and the reader's buffer hold.
      for (let index = 0; index < 200; index++) expect(await status(server.baseUrl, 4000)).toBe(200)
      const exit = terminate(server)
      if (readerDies) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        server.child.stdout!.destroy()
      }
      const { code, milliseconds } = await exit
      expect(code).toBe(0)
      expect(milliseconds).toBeLessThan(SHUTDOWN_DEADLINE_MS)
    }
  }, 120_000)
})
