/**
 * One hot token on each database (`npm run bench:databases`): a gateway on SQLite, PostgreSQL and
 * MySQL in turn, one token, one channel to the mock upstream, many connections at once, as one busy
 * client makes them. Prints requests/s and latency per database and mode, then checks that the
 * token's spending, the user's, the consume logs and the quota held all agree, and writes
 * bench/results/databases.md. PostgreSQL and MySQL are measured when BENCH_POSTGRES_URL /
 * BENCH_MYSQL_URL (or TEST_POSTGRES_URL / TEST_MYSQL_URL) name a server; each run creates a
 * database of its own there and drops it afterwards.
 *
 *   npm run bench:databases [-- --seconds 5 --connections 100]
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { createConnection } from 'mysql2/promise'
import pg from 'pg'
import { BENCH_MODEL, chatBody, setUpGateway } from '../relay/gateway-setup.ts'
import type { LoadInput, LoadResult } from '../relay/load-worker.ts'
import {
  freePort,
  REPOSITORY_ROOT,
  runWorker,
  spawnGateway,
  spawnTypeScript,
  stopAll,
  stopService,
  waitForHttp,
} from '../relay/processes.ts'
import { gatewayEnvironment, ROOT_PASSWORD } from '../relay/services.ts'

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '100' },
  },
})
const SECONDS = Number(flags.seconds)
const CONNECTIONS = Number(flags.connections)
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL || process.env.TEST_POSTGRES_URL
const MYSQL_URL = process.env.BENCH_MYSQL_URL || process.env.TEST_MYSQL_URL

/** The totals that must agree after a run (all in quota units, except the counts). */
interface Totals {
  tokenUsed: number
  userUsed: number
  logged: number
  logs: number
  requests: number
  held: number
}

/** A database of the run's own: the gateway's SQL_DSN (empty for SQLite), its totals, its removal. */
interface ScratchTarget {
  name: string
  dsn: string
  /** The gateway's SQLite file (used when `dsn` is empty; the others keep their logs of start-up there). */
  sqlitePath: string
  totals(): Promise<Totals>
  drop(): Promise<void>
}

const TOTALS_SQL = `select
  (select coalesce(sum(used_quota), 0) from tokens) as token_used,
  (select coalesce(sum(used_quota), 0) from users) as user_used,
  (select coalesce(sum(quota), 0) from logs where type = 2) as logged,
  (select count(*) from logs where type = 2) as logs,
  (select coalesce(sum(request_count), 0) from users) as requests,
  (select coalesce(sum(amount), 0) from quota_holds) as held`

function totalsOf(row: Record<string, unknown>): Totals {
  return {
    tokenUsed: Number(row.token_used),
    userUsed: Number(row.user_used),
    logged: Number(row.logged),
    logs: Number(row.logs),
    requests: Number(row.requests),
    held: Number(row.held),
  }
}

function sqliteTarget(directory: string): ScratchTarget {
  const path = join(directory, 'bench.db')
  return {
    name: 'SQLite',
    dsn: '',
    sqlitePath: path,
    async totals() {
      const database = new Database(path, { readonly: true })
      try {
        return totalsOf(database.prepare(TOTALS_SQL).get() as Record<string, unknown>)
      } finally {
        database.close()
      }
    },
    async drop() {},
  }
}

async function postgresTarget(url: string, directory: string): Promise<ScratchTarget> {
  const name = `oneapi_bench_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const target = new URL(url)
  target.pathname = `/${name}`
  const dsn = target.toString()
  return {
    name: 'PostgreSQL',
    dsn,
    sqlitePath: join(directory, 'unused-postgres.db'),
    async totals() {
      const client = new pg.Client({ connectionString: dsn })
      await client.connect()
      try {
        return totalsOf((await client.query(TOTALS_SQL)).rows[0])
      } finally {
        await client.end()
      }
    },
    async drop() {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}

async function mysqlTarget(url: string, directory: string): Promise<ScratchTarget> {
  const name = `oneapi_bench_${randomBytes(6).toString('hex')}`
  const server = new URL(url)
  const connect = (database?: string) =>
    createConnection({
      host: server.hostname,
      port: Number(server.port || 3306),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
      database,
    })
  const admin = await connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const credentials = `${decodeURIComponent(server.username)}${server.password ? `:${decodeURIComponent(server.password)}` : ''}`
  return {
    name: 'MySQL',
    // one-api's DSN form, which SQL_DSN takes for MySQL.
    dsn: `${credentials}@tcp(${server.hostname}:${server.port || 3306})/${name}`,
    sqlitePath: join(directory, 'unused-mysql.db'),
    async totals() {
      const connection = await connect(name)
      try {
        const [rows] = await connection.query(TOTALS_SQL)
        return totalsOf((rows as Array<Record<string, unknown>>)[0]!)
      } finally {
        await connection.end()
      }
    },
    async drop() {
      const connection = await connect()
      await connection.query(`drop database if exists ${name}`)
      await connection.end()
    },
  }
}

interface Row {
  database: string
  mode: 'non-stream' | 'stream'
  result: LoadResult
}

async function measure(target: ScratchTarget, mockUrl: string): Promise<Row[]> {
  const port = await freePort()
  const gateway = await spawnGateway(gatewayEnvironment(port, target.sqlitePath, target.dsn))
  const url = `http://127.0.0.1:${port}`
  await waitForHttp(gateway, `${url}/api/status`)
  const { tokenKey } = await setUpGateway(url, mockUrl, ROOT_PASSWORD)
  const rows: Row[] = []
  for (const mode of ['non-stream', 'stream'] as const) {
    const stream = mode === 'stream'
    const input: LoadInput = {
      url: `${url}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokenKey}` },
      body: chatBody(BENCH_MODEL, stream),
      connections: CONNECTIONS,
      duration: SECONDS,
      warmupSeconds: 1,
      expect: stream ? 'sse' : 'json',
    }
    const result = await runWorker<LoadResult>('bench/relay/load-worker.ts', input)
    console.log(
      `[bench] ${target.name} ${mode}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms`,
    )
    rows.push({ database: target.name, mode, result })
  }
  // A graceful stop: the gateway settles and logs everything in flight before it exits.
  await stopService(gateway, 15_000)
  return rows
}

/** What disagrees after a run (nothing when the books balance). */
function disagreements(totals: Totals, answered: number): string[] {
  const found: string[] = []
  if (totals.tokenUsed !== totals.logged)
    found.push(`token spent ${totals.tokenUsed}, logs say ${totals.logged}`)
  if (totals.userUsed !== totals.logged)
    found.push(`user spent ${totals.userUsed}, logs say ${totals.logged}`)
  if (totals.requests !== totals.logs)
    found.push(`user counted ${totals.requests} requests, ${totals.logs} logged`)
  if (totals.logs < answered) found.push(`${answered} requests answered, ${totals.logs} logged`)
  if (totals.held !== 0) found.push(`${totals.held} still held after the gateway stopped`)
  return found
}

async function main() {
  const directory = mkdtempSync(join(tmpdir(), 'one-api-bench-databases-'))
  const mockPort = await freePort()
  const mockUrl = `http://127.0.0.1:${mockPort}`
  const mock = spawnTypeScript('mock upstream', 'tools/mock-upstream/src/main.ts', [
    '--port',
    `${mockPort}`,
    '--log-size',
    '0',
  ])
  await waitForHttp(mock, `${mockUrl}/v1/models`)
  const rows: Row[] = []
  const problems: string[] = []
  try {
    const targets: Array<() => Promise<ScratchTarget>> = [async () => sqliteTarget(directory)]
    if (POSTGRES_URL) targets.push(() => postgresTarget(POSTGRES_URL, directory))
    if (MYSQL_URL) targets.push(() => mysqlTarget(MYSQL_URL, directory))
    for (const make of targets) {
      const target = await make()
      try {
        const measured = await measure(target, mockUrl)
        rows.push(...measured)
        const answered = measured.reduce((sum, row) => sum + row.result.ok, 0)
        for (const problem of disagreements(await target.totals(), answered)) {
          problems.push(`${target.name}: ${problem}`)
        }
      } finally {
        await target.drop()
      }
    }
  } finally {
    await stopAll()
    rmSync(directory, { recursive: true, force: true })
  }
  const lines = [
    `# One hot token per database (${CONNECTIONS} connections, ${SECONDS} s per mode)`,
    '',
    '| database | mode | req/s | p50 ms | p99 ms | errors / non-2xx |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      ({ database, mode, result }) =>
        `| ${database} | ${mode} | ${Math.round(result.requestsPerSecond)} | ${result.latencyP50Ms} | ${result.latencyP99Ms} | ${result.errors + result.timeouts} / ${result.non2xx} |`,
    ),
    '',
    problems.length === 0
      ? 'After each database: token and user spending, consume logs and request counts agree, nothing held.'
      : `DISAGREEMENTS:\n${problems.map((problem) => `- ${problem}`).join('\n')}`,
    '',
  ]
  console.log(`\n${lines.join('\n')}`)
  mkdirSync(join(REPOSITORY_ROOT, 'bench/results'), { recursive: true })
  writeFileSync(join(REPOSITORY_ROOT, 'bench/results/databases.md'), lines.join('\n'))
  if (problems.length > 0) process.exitCode = 1
}

await main()
