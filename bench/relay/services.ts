/**
 * The three servers of the benchmark (mock upstream, reference relay, gateway), started in their own
 * processes on free ports of 127.0.0.1, plus the gateway's setup, and the URL and headers a client
 * uses for each target.
 */
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { setUpGateway } from './gateway-setup.ts'
import {
  freePort,
  type Service,
  spawnGateway,
  spawnTypeScript,
  stopService,
  waitForHttp,
} from './processes.ts'
import type { Target } from './report.ts'

export const ROOT_PASSWORD = 'bench-root-password'
/**
 * The reference relay runs at its best, the same in every process. With V8's default allocation-site
 * pretenuring, most reference processes (37 of 41 measured alone, about two rounds in three of the
 * benchmark) decide early to allocate some of the relay's short-lived objects in the old generation,
 * and from then on spend 13-15 % of their CPU in young-generation collections (perf:
 * Scavenger::ScavengeObject) and relay 15,000-22,600 streams/s; the others spend 2 % and relay
 * 22,400-28,500. The gateway has the same two speeds (measured later, per thread: about half of its
 * processes slow), so it turns pretenuring off itself, as it does in production
 * (apps/server/src/platform/v8-flags.ts); both therefore run with the same V8 setting.
 */
export const REFERENCE_NODE_ARGUMENTS = ['--no-allocation-site-pretenuring']

/**
 * A benchmark gateway's environment: SQLite at `sqlitePath` unless `sqlDsn` names PostgreSQL or
 * MySQL, quota and logging on, no rate limits. Empty values count as unset: a benchmark never uses
 * a database or Redis configured in the environment it runs in.
 */
export function gatewayEnvironment(port: number, sqlitePath: string, sqlDsn = ''): Record<string, string> {
  return {
    PORT: `${port}`,
    HOST: '127.0.0.1',
    SQLITE_PATH: sqlitePath,
    SQL_DSN: sqlDsn,
    LOG_SQL_DSN: '',
    REDIS_CONN_STRING: '',
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    SESSION_SECRET: 'bench-session-secret',
    GLOBAL_API_RATE_LIMIT: '0',
    GLOBAL_WEB_RATE_LIMIT: '0',
    CRITICAL_RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
  }
}

export interface Endpoint {
  url: string
  headers: Record<string, string>
}

export interface Services {
  endpoints: Record<Target, Endpoint>
  /** The gateway process running now (restartRelays replaces it). */
  gateway(): Service
  /**
   * Stops the reference relay and the gateway and starts each again on the same port; the gateway
   * keeps its SQLite file, so its channels and token stay. A relay's speed differs from one process
   * to the next on this machine (see bench/HISTORY.md), so each round of throughput runs on fresh ones.
   */
  restartRelays(): Promise<void>
  sqlitePath: string
}

/** `profileDirectory`: when set, each gateway process writes a V8 CPU profile there when it stops. */
export async function startServices(
  temporaryDirectory: string,
  profileDirectory?: string,
  channelType = 50,
): Promise<Services> {
  const [mockPort, referencePort, gatewayPort] = [await freePort(), await freePort(), await freePort()]
  const mockUrl = `http://127.0.0.1:${mockPort}`
  const referenceUrl = `http://127.0.0.1:${referencePort}`
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`
  const sqlitePath = join(temporaryDirectory, 'bench.db')
  const mock = spawnTypeScript('mock upstream', 'tools/mock-upstream/src/main.ts', [
    '--port',
    `${mockPort}`,
    '--log-size',
    '0',
  ])
  const startReference = async () => {
    const reference = spawnTypeScript(
      'reference relay',
      'bench/relay/reference-relay.ts',
      ['--port', `${referencePort}`, '--upstream', mockUrl],
      {},
      REFERENCE_NODE_ARGUMENTS,
    )
    await waitForHttp(reference, `${referenceUrl}/v1/models`)
    return reference
  }
  const environment = gatewayEnvironment(gatewayPort, sqlitePath)
  const profiling = profileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`] : []
  const startGateway = async () => {
    const gateway = await spawnGateway(environment, profiling)
    await waitForHttp(gateway, `${gatewayUrl}/api/status`)
    return gateway
  }
  let [reference, gateway] = await Promise.all([
    startReference(),
    startGateway(),
    waitForHttp(mock, `${mockUrl}/v1/models`),
  ])
  const { tokenKey } = await setUpGateway(gatewayUrl, mockUrl, ROOT_PASSWORD, channelType)

  const json = { 'content-type': 'application/json' }
  // The mock accepts any key; direct and reference clients send one as a real client would.
  const upstreamKey = { ...json, authorization: 'Bearer sk-bench-upstream' }
  const path = '/v1/chat/completions'
  return {
    endpoints: {
      direct: { url: mockUrl + path, headers: upstreamKey },
      reference: { url: referenceUrl + path, headers: upstreamKey },
      gateway: { url: gatewayUrl + path, headers: { ...json, authorization: `Bearer ${tokenKey}` } },
    },
    gateway: () => gateway,
    async restartRelays() {
      // A graceful stop: the gateway flushes its batched logs before it exits.
      await Promise.all([stopService(reference), stopService(gateway, 15_000)])
      ;[reference, gateway] = await Promise.all([startReference(), startGateway()])
    },
    sqlitePath,
  }
}

/** Consume logs (type 2) in the gateway's SQLite file; call after the gateway stopped (it flushes). */
export function countConsumeLogs(sqlitePath: string): number | undefined {
  try {
    const database = new Database(sqlitePath, { readonly: true })
    try {
      const row = database.prepare('select count(*) as count from logs where type = 2').get() as {
        count: number
      }
      return row.count
    } finally {
      database.close()
    }
  } catch (error) {
    console.log(`[bench] could not count consume logs: ${(error as Error).message}`)
    return undefined
  }
}
