import { type ChildProcess, spawn } from 'node:child_process'
import { freePort } from './free-port.ts'
import { COMPILED_SERVER, REPOSITORY_ROOT } from './server-process.ts'
import type { ScratchDatabase } from './test-databases.ts'

export const ROOT_PASSWORD = 'root-password-1'

/** The compiled gateway in a process of its own, on a database a test created. */
export interface GatewayProcess {
  child: ChildProcess
  baseUrl: string
  exited: Promise<number | null>
  /** The process's stderr and stdout so far (warnings and errors at LOG_LEVEL warn). */
  output(): string
  /** SIGKILL: no shutdown work of any kind. */
  kill(): Promise<void>
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<number | null>
}

/**
 * Starts the gateway on `database` (migrating it on the first start) and waits until it answers;
 * `env` adds to or overrides the environment.
 */
export async function startGateway(
  database: ScratchDatabase,
  env: Record<string, string> = {},
): Promise<GatewayProcess> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, COMPILED_SERVER, {
    cwd: REPOSITORY_ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(database.dsn ? { SQL_DSN: database.dsn } : { SQLITE_PATH: database.sqlitePath! }),
      INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let ended = false
  void exited.then(() => {
    ended = true
  })
  for (let attempt = 0; attempt < 600 && !ended; attempt++) {
    const ready = await fetch(`${baseUrl}/api/status`).then(
      (response) => response.ok,
      () => false,
    )
    if (ready) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (ended) throw new Error(`the gateway exited at start:\n${output}`)
  return {
    child,
    baseUrl,
    exited,
    output: () => output,
    async kill() {
      if (!ended) child.kill('SIGKILL')
      await exited
    },
    async stop() {
      if (!ended) child.kill('SIGTERM')
      return exited
    },
  }
}
