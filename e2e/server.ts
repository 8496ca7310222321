import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** A free TCP port on 127.0.0.1, found by letting the kernel pick one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

async function waitForStatus(baseUrl: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`)
    try {
      const response = await fetch(`${baseUrl}/api/status`)
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    await sleep(250)
  }
  throw new Error(`the server did not answer /api/status within ${timeoutMs / 1000} s`)
}

/**
 * Starts the real server (compiled, as `npm start` runs it) on a free port with a fresh SQLite file,
 * a known root password and rate limits off, and waits until /api/status answers.
 */
export async function startServer({
  repositoryRoot,
  rootPassword,
  env = {},
}: {
  repositoryRoot: string
  rootPassword: string
  /** More environment, e.g. the provider endpoints pointing at local fakes. */
  env?: Record<string, string>
}) {
  const port = await freePort()
  const dataDirectory = mkdtempSync(join(tmpdir(), 'one-api-e2e-'))
  const output: Buffer[] = []
  // The compiled server, as `npm start` runs it (it starts in half the time tsx takes).
  const child = spawn(process.execPath, ['--conditions=compiled', 'apps/server/dist/main.js'], {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dataDirectory, 'one-api.db'),
      SQL_DSN: '',
      LOG_SQL_DSN: '',
      REDIS_CONN_STRING: '',
      INITIAL_ROOT_PASSWORD: rootPassword,
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '0',
      CRITICAL_RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.on('data', (chunk) => output.push(chunk))
  child.stderr.on('data', (chunk) => output.push(chunk))
  const baseUrl = `http://127.0.0.1:${port}`

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const stopped = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)])
      if (!stopped) {
        child.kill('SIGKILL')
        await exited
      }
    }
    rmSync(dataDirectory, { recursive: true, force: true })
  }

  try {
    await waitForStatus(baseUrl, child, 60_000)
  } catch (error) {
    await stop()
    throw new Error(`${(error as Error).message}\n${Buffer.concat(output).toString()}`)
  }
  return { baseUrl, stop, output: () => Buffer.concat(output).toString() }
}
