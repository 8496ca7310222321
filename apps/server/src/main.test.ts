import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from './testing/free-port.ts'
import { COMPILED_SERVER, REPOSITORY_ROOT } from './testing/server-process.ts'

interface Running {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
}

/** Every server started, stopped after the tests even when one failed before stopping its own. */
const started: ChildProcess[] = []
afterAll(() => {
  for (const child of started) child.kill('SIGKILL')
})

function startServer(env: Record<string, string>): Running {
  let output = ''
  const child = spawn(process.execPath, COMPILED_SERVER, {
    cwd: REPOSITORY_ROOT,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
  })
  started.push(child)
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

async function waitForStatus(port: number): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/status`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('server did not start')
}

describe('the server process', () => {
  it('prints a generated root password once, on the first start only, and stops cleanly on SIGTERM', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'one-api-main-'))
    const port = await freePort()
    const env = { PORT: String(port), SQLITE_PATH: join(directory, 'one-api.db') }
    const first = startServer(env)
    await waitForStatus(port)
    const match = /password \\"([A-Za-z0-9_-]{16})\\"/.exec(first.output())
    expect(match).not.toBeNull()
    const login = await fetch(`http://127.0.0.1:${port}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: match![1] }),
    })
    expect(login.status).toBe(200)
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(first.output()).toContain('stopped')

    const second = startServer(env)
    await waitForStatus(port)
    second.child.kill('SIGINT')
    expect(await second.exited).toBe(0)
    expect(second.output()).not.toMatch(/created the root user/)
  }, 60_000)

  it('refuses to start with a bad variable and names it', async () => {
    const run = startServer({ PORT: 'eighty' })
    expect(await run.exited).toBe(1)
    expect(run.output()).toContain('PORT: must be an integer')
  }, 30_000)

  it('refuses to start with a DSN it does not understand', async () => {
    const run = startServer({ PORT: String(await freePort()), SQL_DSN: 'not-a-dsn' })
    expect(await run.exited).toBe(1)
    expect(run.output()).toContain('SQL_DSN')
  }, 30_000)
})
