/**
 * Child processes of the benchmark: every server and every load generator runs in its own process
 * (its own process group, so a kill reaches anything it started), and all of them are stopped when
 * the run ends, fails or is interrupted.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

export const REPOSITORY_ROOT = new URL('../../', import.meta.url).pathname

export interface Service {
  name: string
  child: ChildProcess
  /** Last lines of stderr/stdout, shown when the service dies or fails to start. */
  output: string[]
}

const running = new Set<ChildProcess>()

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

// Last resort when the runner exits without reaching its cleanup (an uncaught error, process.exit).
process.on('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL')
})

/** Runs `node --import tsx <script>` from the repository root in a new process group. */
export function spawnTypeScript(
  name: string,
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  nodeArguments: string[] = [],
): Service {
  return spawnNode(name, [...nodeArguments, '--import', 'tsx', script, ...args], env)
}

/**
 * Starts the gateway as `npm start` runs it in production: the compiled server (apps/server/dist)
 * on plain Node, compiled first when its sources are newer. Under tsx the process also held tsx's
 * loader thread and its transpiled sources, 20-45 MB of RSS the product never has (and the
 * functions esbuild names for tsx at each closure's creation): see bench/HISTORY.md.
 */
export async function spawnGateway(
  env: Record<string, string>,
  nodeArguments: string[] = [],
): Promise<Service> {
  const compile = '../../scripts/compile.mjs'
  const { ensureCompiled } = (await import(compile)) as { ensureCompiled: () => Promise<void> }
  await ensureCompiled()
  return spawnNode('gateway', [...nodeArguments, '--conditions=compiled', 'apps/server/dist/main.js'], env)
}

/** Runs `node <arguments>` from the repository root in a new process group. */
export function spawnNode(name: string, nodeArguments: string[], env: Record<string, string> = {}): Service {
  const child = spawn(process.execPath, nodeArguments, {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  child.on('exit', () => running.delete(child))
  const output: string[] = []
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean))
    if (output.length > 40) output.splice(0, output.length - 40)
  }
  // Both pipes are always drained: a full pipe would block the child.
  child.stderr?.on('data', keep)
  child.stdout?.on('data', keep)
  return { name, child, output }
}

/** Runs a worker script to completion and returns its stdout (the worker prints one JSON line). */
export async function runWorker<T>(script: string, input: unknown): Promise<T> {
  const worker = spawnTypeScript(script, script, [JSON.stringify(input)])
  let stdout = ''
  worker.child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8')
  })
  const code = await new Promise<number | null>((resolve) => worker.child.on('close', resolve))
  if (code !== 0) throw new Error(`${script} exited with ${code}:\n${worker.output.join('\n')}`)
  const lastLine = stdout.trim().split('\n').at(-1) ?? ''
  return JSON.parse(lastLine) as T
}

/** Stops a service: SIGTERM to its group, SIGKILL after `graceMs`. */
export async function stopService(service: Service, graceMs = 5000): Promise<void> {
  const { child } = service
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  killGroup(child, 'SIGTERM')
  const timedOut = await Promise.race([exited.then(() => false), sleep(graceMs).then(() => true)])
  if (timedOut) {
    killGroup(child, 'SIGKILL')
    await exited
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopService({ name: '', child, output: [] }, 3000)))
}

/** A port free right now on 127.0.0.1 (the service is started on it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** Waits until `url` answers any HTTP status, or fails with the service's last output. */
export async function waitForHttp(service: Service, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) {
      throw new Error(`${service.name} exited with ${service.child.exitCode}:\n${service.output.join('\n')}`)
    }
    try {
      const response = await fetch(url)
      await response.arrayBuffer()
      return
    } catch {
      await sleep(100)
    }
  }
  throw new Error(
    `${service.name} did not answer at ${url} within ${timeoutMs} ms:\n${service.output.join('\n')}`,
  )
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(status)
  if (!match) throw new Error(`no VmRSS for process ${pid}`)
  return Number(match[1]) / 1024
}
