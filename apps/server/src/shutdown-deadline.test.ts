import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { eventually } from './testing/eventually.ts'
import { freePort } from './testing/free-port.ts'
import { COMPILED_SERVER, REPOSITORY_ROOT } from './testing/server-process.ts'
import { TcpCut } from './testing/tcp-cut.ts'
import { createScratchDatabase, POSTGRES_URL, type ScratchDatabase } from './testing/test-databases.ts'

const SHUTDOWN_TIMEOUT = 1
/** docs/operations.md: after SIGTERM the process ends within 2 × SHUTDOWN_TIMEOUT + 10 s. */
const SHUTDOWN_DEADLINE_MS = (2 * SHUTDOWN_TIMEOUT + 10) * 1000

describe.skipIf(!POSTGRES_URL)('the shutdown deadline', () => {
  let scratch: ScratchDatabase | undefined
  let link: TcpCut | undefined
  let child: ChildProcess | undefined
  afterAll(async () => {
    child?.kill('SIGKILL')
    await link?.close()
    await scratch?.drop()
  })

  it('ends the process within it even when the database stopped answering', async () => {
    scratch = await createScratchDatabase('postgres', mkdtempSync(join(tmpdir(), 'one-api-deadline-')))
    const dsn = new URL(scratch.dsn!)
    link = await TcpCut.start(Number(dsn.port || 5432))
    dsn.hostname = '127.0.0.1'
    dsn.port = String(link.port)
    const port = await freePort()
    child = spawn(process.execPath, COMPILED_SERVER, {
      cwd: REPOSITORY_ROOT,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        SQL_DSN: dsn.toString(),
        INITIAL_ROOT_PASSWORD: 'root-password-1',
        LOG_LEVEL: 'error',
        SHUTDOWN_TIMEOUT: String(SHUTDOWN_TIMEOUT),
      },
      stdio: 'ignore',
    })
    const exited = new Promise<number | null>((resolve) => child!.on('exit', resolve))
    const ready = () =>
      fetch(`http://127.0.0.1:${port}/api/status`).then(
        (response) => response.ok,
        () => false,
      )
    await eventually(ready, 30_000, 100)
    // The database server is still there but answers nothing: closing its pool never completes.
    link.freeze()
    const started = Date.now()
    child.kill('SIGTERM')
    const code = await Promise.race([
      exited,
      new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), SHUTDOWN_DEADLINE_MS + 5000)),
    ])
    expect(code).not.toBe('running')
    expect(Date.now() - started).toBeLessThan(SHUTDOWN_DEADLINE_MS + 500)
    // Work was left undone: the exit says so.
    expect(code).toBe(1)
  }, 90_000)
})
