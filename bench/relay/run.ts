/**
 * The relay benchmark (`npm run bench`): starts the mock upstream, a reference relay and the real
 * gateway, each in its own process, and measures in one run direct-to-mock vs reference relay vs
 * gateway (throughput at fixed concurrency, latency at one connection), then the gateway's memory
 * across many streams and with many slow streams open. Prints a table and writes
 * bench/results/latest.md. See bench/README.md.
 *
 *   npm run bench [-- --seconds 10 --rounds 5 --warmup 2 --connections 50 --probe-seconds 3 --profile-gateway <dir>]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { answerProblem, BENCH_MODEL, chatBody, checkTarget, SLOW_MODEL } from './gateway-setup.ts'
import type { ProbeInput, ProbeResult } from './latency-probe.ts'
import { combineLoads } from './load-results.ts'
import type { LoadInput, LoadResult } from './load-worker.ts'
import { PORTKEY_LABEL, startPortkey } from './peers.ts'
import { REPOSITORY_ROOT, residentMegabytes, runWorker, stopAll, stopService } from './processes.ts'
import {
  type Measurements,
  MODES,
  type Mode,
  problems,
  renderConsole,
  renderMarkdown,
  renderPeers,
  TARGET_LABELS,
  TARGETS,
  type Target,
} from './report.ts'
import { countConsumeLogs, type Endpoint, type Services, startServices } from './services.ts'
import type { SlowStreamsInput, SlowStreamsResult } from './slow-streams.ts'

const MEMORY_REQUESTS = 20_000
// Caps that keep the run near 3 minutes when the gateway is slower than its targets.
const MEMORY_MAX_SECONDS = 25
const SLOW_STREAMS = 1_000
const SLOW_HOLD_SECONDS = 2
const SLOW_DEADLINE_SECONDS = 20

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    'probe-seconds': { type: 'string', default: '3' },
    // Five fresh pairs of relay processes: the reference relay's CPU per stream differs from one
    // process to the next (58-82 µs in nine processes, each measured side by side with a gateway,
    // whose nine spent 103-118 µs), and the host's speed swings within seconds; three rounds
    // averaged that too little (the rounds of one run ranged from 0.47 to 1.33).
    rounds: { type: 'string', default: '5' },
    peers: { type: 'boolean', default: false },
    // The gateway's benchmark channel is an Anthropic one (type 14): each request is translated to
    // the Messages API and its answer (and stream) back to OpenAI's format.
    anthropic: { type: 'boolean', default: false },
    // Writes a V8 CPU profile of the gateway (open it in Chrome DevTools) to find what limits it.
    'profile-gateway': { type: 'string' },
  },
})
const settings = {
  seconds: Number(flags.seconds),
  warmupSeconds: Number(flags.warmup),
  connections: Number(flags.connections),
  probeSeconds: Number(flags['probe-seconds']),
  rounds: Math.max(1, Math.floor(Number(flags.rounds))),
}

const gatewayPid = (services: Services) => services.gateway().child.pid as number
const log = (message: string) => console.log(`[bench] ${message}`)
const megabytes = (value: number) => `${value.toFixed(1)} MB`

/** Samples a process's RSS every 100 ms until stopped; returns the peak. */
function sampleResident(pid: number) {
  let peak = residentMegabytes(pid)
  const timer = setInterval(() => {
    peak = Math.max(peak, residentMegabytes(pid))
  }, 100)
  return () => {
    clearInterval(timer)
    return Math.max(peak, residentMegabytes(pid))
  }
}

function throughputRun(
  endpoint: Endpoint,
  mode: Mode,
  seconds = settings.seconds,
  warmupSeconds = settings.warmupSeconds,
): Promise<LoadResult> {
  const stream = mode === 'stream'
  return runWorker<LoadResult>('bench/relay/load-worker.ts', {
    ...endpoint,
    body: chatBody(BENCH_MODEL, stream),
    connections: settings.connections,
    duration: seconds,
    warmupSeconds,
    expect: stream ? 'sse' : 'json',
  } satisfies LoadInput)
}

/**
 * Each target's throughput in `settings.rounds` interleaved rounds (direct, reference, gateway,
 * then again), its measured seconds split between them. Two kinds of noise are spread this way:
 * the machine's speed drifts during a run (other tenants of a shared host), which interleaving
 * shares between the targets; and a relay process runs at a speed of its own, steady for its life
 * but different from the next process's (the reference relay 14,000-23,000 stream req/s), which
 * fresh relay processes for each round average out. The mock stays: its speed does not vary so.
 */
async function measureThroughput(services: Services) {
  const { endpoints } = services
  const slices = {} as Record<Target, Record<Mode, LoadResult[]>>
  for (const target of TARGETS) slices[target] = { 'non-stream': [], stream: [] }
  const roundRatios = { 'non-stream': [], stream: [] } as Record<Mode, number[]>
  for (let round = 0; round < settings.rounds; round++) {
    if (round > 0) {
      log(`round ${round + 1}/${settings.rounds}: restarting the reference relay and the gateway`)
      await services.restartRelays()
    }
    for (const mode of MODES) {
      // Each mode gets the same warm-up: the gateway streams through code of its own (the stream
      // transformer, the client stream) that its first mode leaves cold, where the reference
      // relay forwards both modes through the same code (see bench/HISTORY.md, eleventh session).
      const warmup = settings.warmupSeconds
      for (const target of TARGETS) {
        const result = await throughputRun(
          endpoints[target],
          mode,
          settings.seconds / settings.rounds,
          warmup,
        )
        slices[target][mode].push(result)
        log(
          `${target} ${mode} @${settings.connections}, round ${round + 1}/${settings.rounds}: ` +
            `${result.requestsPerSecond.toFixed(0)} req/s ` +
            `(${result.non2xx} non-2xx, ${result.errors} errors, ${result.mismatches} malformed)`,
        )
      }
      const [reference, gateway] = [slices.reference[mode].at(-1)!, slices.gateway[mode].at(-1)!]
      roundRatios[mode].push(gateway.requestsPerSecond / reference.requestsPerSecond)
    }
  }
  const throughput = {} as Measurements['throughput']
  for (const target of TARGETS) {
    throughput[target] = {
      'non-stream': combineLoads(slices[target]['non-stream']),
      stream: combineLoads(slices[target].stream),
    }
  }
  return { throughput, roundRatios }
}

function latencyProbe(endpoint: Endpoint, mode: Mode): Promise<ProbeResult> {
  return runWorker<ProbeResult>('bench/relay/latency-probe.ts', {
    ...endpoint,
    body: chatBody(BENCH_MODEL, mode === 'stream'),
    warmupSeconds: 0.5,
    seconds: settings.probeSeconds,
  } satisfies ProbeInput)
}

async function memoryAcrossStreams(gateway: Endpoint, pid: number) {
  log(`memory: ${MEMORY_REQUESTS} streamed requests through the gateway`)
  await sleep(1000)
  const beforeMb = residentMegabytes(pid)
  const stopSampling = sampleResident(pid)
  const load = await runWorker<LoadResult>('bench/relay/load-worker.ts', {
    ...gateway,
    body: chatBody(BENCH_MODEL, true),
    connections: settings.connections,
    amount: MEMORY_REQUESTS,
    maxSeconds: MEMORY_MAX_SECONDS,
    expect: 'sse',
  } satisfies LoadInput)
  const peakMb = stopSampling()
  // Let batched logs flush and the heap settle before the second sample.
  await sleep(1000)
  const afterMb = residentMegabytes(pid)
  log(
    `memory: ${load.completed} requests, RSS ${megabytes(beforeMb)} -> ${megabytes(afterMb)} (peak ${megabytes(peakMb)})`,
  )
  return { requests: MEMORY_REQUESTS, beforeMb, afterMb, peakMb, load }
}

async function memoryWithSlowStreams(gateway: Endpoint, pid: number) {
  log(`memory: ${SLOW_STREAMS} slow streams held open through the gateway`)
  const slowBeforeMb = residentMegabytes(pid)
  const stopSampling = sampleResident(pid)
  const slow = await runWorker<SlowStreamsResult>('bench/relay/slow-streams.ts', {
    ...gateway,
    body: chatBody(SLOW_MODEL, true),
    count: SLOW_STREAMS,
    holdSeconds: SLOW_HOLD_SECONDS,
    deadlineSeconds: SLOW_DEADLINE_SECONDS,
  } satisfies SlowStreamsInput)
  const slowPeakMb = stopSampling()
  log(
    `memory: peak ${megabytes(slowPeakMb)} with ${slow.maxOpen} streams open at once (${slow.failed} failed)`,
  )
  return { slowCount: SLOW_STREAMS, slowBeforeMb, slowPeakMb, slow }
}

async function measure(
  temporary: string,
  started: number,
  machine: Measurements['machine'],
): Promise<Measurements> {
  log('starting the mock upstream, the reference relay and the gateway')
  const services = await startServices(temporary, flags['profile-gateway'], flags.anthropic ? 14 : 50)
  const { endpoints, sqlitePath } = services
  for (const target of TARGETS) {
    await checkTarget(TARGET_LABELS[target], endpoints[target].url, endpoints[target].headers)
  }
  log(`all targets answer; gateway RSS ${megabytes(residentMegabytes(gatewayPid(services)))}`)

  const { throughput, roundRatios } = await measureThroughput(services)
  const latency = {} as Measurements['latency']
  for (const target of TARGETS) {
    latency[target] = {} as Record<Mode, ProbeResult>
    for (const mode of MODES) {
      const result = await latencyProbe(endpoints[target], mode)
      latency[target][mode] = result
      log(
        `${target} ${mode} @1: p50 ${result.p50Ms.toFixed(3)} ms, p99 ${result.p99Ms.toFixed(3)} ms (${result.samples} samples)`,
      )
    }
  }
  const peers = flags.peers ? await measurePeers(new URL(endpoints.direct.url).origin) : undefined
  const memory = {
    ...(await memoryAcrossStreams(endpoints.gateway, gatewayPid(services))),
    ...(await memoryWithSlowStreams(endpoints.gateway, gatewayPid(services))),
  }
  // A graceful stop flushes the batched consume logs, so they can be counted in the file.
  await stopService(services.gateway(), 15_000)
  return {
    date: new Date(started).toISOString(),
    machine,
    settings,
    throughput,
    roundRatios,
    latency,
    memory,
    consumeLogs: countConsumeLogs(sqlitePath),
    peers,
  }
}

/** Portkey on the same mock, with the same throughput and latency runs as the other targets. */
async function measurePeers(mockOrigin: string): Promise<Measurements['peers']> {
  const { service, endpoint } = await startPortkey(mockOrigin, log)
  try {
    const throughput: Partial<Record<Mode, LoadResult>> = {}
    const latency: Partial<Record<Mode, ProbeResult>> = {}
    const failures: Partial<Record<Mode, string>> = {}
    for (const mode of MODES) {
      const problem = await answerProblem(endpoint.url, endpoint.headers, mode === 'stream')
      if (problem) {
        failures[mode] = problem
        log(`portkey ${mode}: not measured; its check request ${problem}`)
        continue
      }
      const result = await throughputRun(endpoint, mode)
      throughput[mode] = result
      log(`portkey ${mode} @${settings.connections}: ${result.requestsPerSecond.toFixed(0)} req/s`)
      const probe = await latencyProbe(endpoint, mode)
      latency[mode] = probe
      log(`portkey ${mode} @1: p50 ${probe.p50Ms.toFixed(3)} ms, p99 ${probe.p99Ms.toFixed(3)} ms`)
    }
    return [{ name: PORTKEY_LABEL, throughput, latency, failures }]
  } finally {
    await stopService(service)
  }
}

async function main(): Promise<void> {
  const started = Date.now()
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadAverage: loadavg()
      .map((value) => value.toFixed(2))
      .join(' '),
  }
  const temporary = mkdtempSync(join(tmpdir(), 'one-api-bench-relay-'))
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping every child process`)
    void stopAll().finally(() => {
      rmSync(temporary, { recursive: true, force: true })
      process.exit(130)
    })
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const results = await measure(temporary, started, machine)
    console.log(renderConsole(results) + renderPeers(results))
    const resultsDirectory = join(REPOSITORY_ROOT, 'bench/results')
    mkdirSync(resultsDirectory, { recursive: true })
    writeFileSync(join(resultsDirectory, 'latest.md'), renderMarkdown(results) + renderPeers(results))
    log(`wrote bench/results/latest.md in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    if (problems(results).length > 0) process.exitCode = 1
  } finally {
    await stopAll()
    rmSync(temporary, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(`[bench] FAILED: ${error instanceof Error ? error.stack : String(error)}`)
  process.exitCode = 1
})
