import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { connect } from 'node:net'
import { freePort } from './free-port.ts'

/**
 * A redis-server of a test's own on a free port (no persistence), for tests that stop and restart
 * Redis or kill its connections without disturbing anything else using the shared server.
 * Installed by `.ci/run`; suites skip with `REDIS_SERVER_MISSING` as their reason without it.
 */
export const REDIS_SERVER_MISSING = spawnSync('redis-server', ['--version']).error
  ? 'redis-server is not installed (apt-get install redis-server)'
  : undefined
if (REDIS_SERVER_MISSING) console.warn(`Redis outage suites: SKIPPED — ${REDIS_SERVER_MISSING}`)

export class RedisProcess {
  private process: ChildProcess | undefined

  private constructor(
    readonly port: number,
    private readonly extraArguments: string[],
  ) {}

  static async start(extraArguments: string[] = []): Promise<RedisProcess> {
    const redis = new RedisProcess(await freePort(), extraArguments)
    await redis.restart()
    return redis
  }

  /** redis://127.0.0.1:<port>/<db>, with a password when given. */
  url(db: number, password?: string): string {
    return `redis://${password ? `:${password}@` : ''}127.0.0.1:${this.port}/${db}`
  }

  /** Starts the server (again, on the same port, empty) and waits until it answers. */
  async restart(): Promise<void> {
    if (this.process) return
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        ...this.extraArguments,
      ],
      { stdio: 'ignore' },
    )
    this.process = child
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await answers(this.port)) return
      if (child.exitCode !== null) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await this.stop()
    throw new Error(`redis-server did not start on port ${this.port}`)
  }

  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered, until thaw(). */
  freeze(): void {
    this.process?.kill('SIGSTOP')
  }

  thaw(): void {
    this.process?.kill('SIGCONT')
  }

  /** Stops the server, as a crash or a restart would (clients see their connections close). */
  async stop(): Promise<void> {
    const child = this.process
    this.process = undefined
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
  }
}

/** True when something on the port answers a RESP PING (a password-protected server answers too). */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.setTimeout(500)
    socket.once('data', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => {
      socket.destroy()
      resolve(false)
    })
  })
}
