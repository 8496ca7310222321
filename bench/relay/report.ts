/**
 * Turns one run's measurements into the console table and bench/results/latest.md, with the targets
 * of the relay issue next to the numbers they judge.
 */
import type { ProbeResult } from './latency-probe.ts'
import type { LoadResult } from './load-worker.ts'
import { REFERENCE_NODE_ARGUMENTS } from './services.ts'
import type { SlowStreamsResult } from './slow-streams.ts'

export const TARGETS = ['direct', 'reference', 'gateway'] as const
export const MODES = ['non-stream', 'stream'] as const
export type Target = (typeof TARGETS)[number]
export type Mode = (typeof MODES)[number]

export const TARGET_LABELS: Record<Target, string> = {
  direct: 'direct to mock',
  reference: 'reference relay (node:http + undici)',
  gateway: 'gateway (auth, billing, logs)',
}

// The targets.
const MIN_THROUGHPUT_RATIO = 0.7
const MAX_ADDED_P50_MS = 0.5
const MAX_ADDED_P99_MS = 3
const MAX_RSS_GROWTH_MB = 50
const MAX_SLOW_STREAMS_RSS_MB = 300

export interface Measurements {
  date: string
  machine: { cpus: number; cpuModel: string; node: string; loadAverage: string }
  settings: {
    connections: number
    seconds: number
    rounds: number
    warmupSeconds: number
    probeSeconds: number
  }
  /** Each target's rounds combined (see run.ts measureThroughput). */
  throughput: Record<Target, Record<Mode, LoadResult>>
  /** Gateway / reference throughput of each round, in order. */
  roundRatios: Record<Mode, number[]>
  latency: Record<Target, Record<Mode, ProbeResult>>
  memory: {
    requests: number
    beforeMb: number
    afterMb: number
    peakMb: number
    load: LoadResult
    slowCount: number
    slowBeforeMb: number
    slowPeakMb: number
    slow: SlowStreamsResult
  }
  consumeLogs: number | undefined
  /** `--peers`: other gateways measured in the same run, same load. */
  peers?: Array<{
    name: string
    throughput: Partial<Record<Mode, LoadResult>>
    latency: Partial<Record<Mode, ProbeResult>>
    /** Why a mode could not be measured (the peer answered the check request wrongly). */
    failures: Partial<Record<Mode, string>>
  }>
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a')
const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL')

/** Failed, non-2xx, timed-out and wrong-bodied answers anywhere in the run, one line each. */
export function problems(results: Measurements): string[] {
  const found: string[] = []
  const loadProblem = (label: string, result: LoadResult) => {
    const bad = result.non2xx + result.errors + result.timeouts + result.mismatches
    if (bad > 0) {
      found.push(
        `${label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts, ${result.mismatches} malformed bodies`,
      )
    }
  }
  for (const target of TARGETS) {
    for (const mode of MODES) {
      loadProblem(`${target} ${mode} @${results.settings.connections}`, results.throughput[target][mode])
      const probe = results.latency[target][mode]
      if (probe.failed > 0) found.push(`${target} ${mode} @1: ${probe.failed} failed requests`)
    }
  }
  loadProblem(`memory run (${results.memory.requests} streams)`, results.memory.load)
  const { slow, slowCount } = results.memory
  if (slow.failed > 0) found.push(`slow streams: ${slow.failed} of ${slowCount} failed before the hang-up`)
  return found
}

interface Row {
  measure: string
  value: string
  target: string
  result: string
}

function rows(results: Measurements): Row[] {
  const { throughput: rate, latency, memory } = results
  const list: Row[] = []
  for (const mode of MODES) {
    const gateway = rate.gateway[mode].requestsPerSecond
    const reference = rate.reference[mode].requestsPerSecond
    const direct = rate.direct[mode].requestsPerSecond
    const ratio = gateway / reference
    list.push({
      measure: `${mode}: gateway / reference relay throughput`,
      value: fixed(ratio),
      target: `>= ${MIN_THROUGHPUT_RATIO}`,
      result: verdict(ratio >= MIN_THROUGHPUT_RATIO),
    })
    list.push({
      measure: `${mode}: gateway / reference relay, each round`,
      value: results.roundRatios[mode].map((value) => fixed(value)).join(' '),
      target: '',
      result: '',
    })
    list.push({
      measure: `${mode}: gateway / direct throughput`,
      value: fixed(gateway / direct),
      target: '',
      result: '',
    })
    list.push({
      measure: `${mode}: reference / direct throughput`,
      value: fixed(reference / direct),
      target: '',
      result: '',
    })
    for (const [name, key, limit] of [
      ['p50', 'p50Ms', MAX_ADDED_P50_MS],
      ['p99', 'p99Ms', MAX_ADDED_P99_MS],
    ] as const) {
      const added = latency.gateway[mode][key] - latency.direct[mode][key]
      list.push({
        measure: `${mode}: gateway added latency ${name} (ms)`,
        value: fixed(added, 3),
        target: `<= ${limit}`,
        result: verdict(added <= limit),
      })
      const referenceAdded = latency.reference[mode][key] - latency.direct[mode][key]
      list.push({
        measure: `${mode}: reference added latency ${name} (ms)`,
        value: fixed(referenceAdded, 3),
        target: '',
        result: '',
      })
    }
  }
  const growth = memory.afterMb - memory.beforeMb
  const allSent = memory.load.completed >= memory.requests
  list.push({
    measure: `RSS growth across ${memory.load.completed} of ${memory.requests} streamed requests (MB)`,
    value: `${fixed(growth, 1)} (${fixed(memory.beforeMb, 1)} -> ${fixed(memory.afterMb, 1)}, peak ${fixed(memory.peakMb, 1)})`,
    target: `<= ${MAX_RSS_GROWTH_MB}`,
    // Flat across fewer requests than the target's count proves nothing either way.
    result: growth > MAX_RSS_GROWTH_MB ? 'FAIL' : allSent ? 'PASS' : 'INCOMPLETE',
  })
  const allOpen = memory.slow.maxOpen >= memory.slowCount
  list.push({
    measure: `peak RSS with ${memory.slowCount} slow streams open (MB)`,
    value: `${fixed(memory.slowPeakMb, 1)} (idle ${fixed(memory.slowBeforeMb, 1)}; ${memory.slow.maxOpen} open at once)`,
    target: `< ${MAX_SLOW_STREAMS_RSS_MB}, all open`,
    result: verdict(memory.slowPeakMb < MAX_SLOW_STREAMS_RSS_MB && allOpen),
  })
  return list
}

function rateTable(results: Measurements): string[] {
  const lines = [
    `| target | non-stream req/s | stream req/s | non-stream p50 / p99 ms @1 | stream p50 / p99 ms @1 |`,
    '| --- | ---: | ---: | ---: | ---: |',
  ]
  for (const target of TARGETS) {
    const rate = results.throughput[target]
    const latency = results.latency[target]
    lines.push(
      `| ${TARGET_LABELS[target]} | ${fixed(rate['non-stream'].requestsPerSecond, 0)} | ${fixed(rate.stream.requestsPerSecond, 0)} | ` +
        `${fixed(latency['non-stream'].p50Ms, 3)} / ${fixed(latency['non-stream'].p99Ms, 3)} | ` +
        `${fixed(latency.stream.p50Ms, 3)} / ${fixed(latency.stream.p99Ms, 3)} |`,
    )
  }
  return lines
}

export function renderConsole(results: Measurements): string {
  const lines = ['', ...rateTable(results), '']
  const table = rows(results)
  const width = Math.max(...table.map((row) => row.measure.length))
  const valueWidth = Math.max(...table.map((row) => row.value.length))
  for (const row of table) {
    lines.push(
      `${row.measure.padEnd(width)}  ${row.value.padStart(valueWidth)}  ${row.target.padEnd(22)} ${row.result}`,
    )
  }
  const found = problems(results)
  if (found.length > 0)
    lines.push(
      '',
      '!!! ERRORS DURING THE RUN: the numbers above are not trustworthy !!!',
      ...found.map((line) => `  - ${line}`),
    )
  return lines.join('\n')
}

export function renderMarkdown(results: Measurements): string {
  const { machine, settings, memory } = results
  const found = problems(results)
  const lines = [
    '# Relay benchmark',
    '',
    `Generated by \`npm run bench\` (bench/relay/run.ts) on ${results.date}.`,
    `Machine: ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, load average at start ${machine.loadAverage}.`,
    'Mock upstream, reference relay, gateway and load generator each run in their own process on this machine.',
    `Throughput: autocannon, ${settings.connections} connections, ${settings.seconds} s per target and mode, measured in ` +
      `${settings.rounds} interleaved rounds (direct, reference, gateway, then again), each round on freshly started ` +
      `reference relay and gateway processes, ${settings.warmupSeconds} s warm-up before each mode.`,
    `Latency: one connection, one request at a time, ${settings.probeSeconds} s after a warm-up, timed to the last byte.`,
    'Gateway: the compiled server on plain Node, as `npm start` runs it; SQLite, token auth, quota reservation and settlement, batched consume logs, rate limits off; ' +
      'V8 allocation-site pretenuring off, as the server always sets it.',
    `Reference relay: node:http + undici forwarding bytes, run with \`${REFERENCE_NODE_ARGUMENTS.join(' ')}\` so that ` +
      'every process runs at the best speed a bare relay reaches (see bench/README.md).',
    '',
  ]
  if (found.length > 0) {
    lines.push(
      '**ERRORS DURING THE RUN: the numbers below are not trustworthy.**',
      '',
      ...found.map((line) => `- ${line}`),
      '',
    )
  } else {
    const runs = [
      ...TARGETS.flatMap((target) => MODES.map((mode) => results.throughput[target][mode])),
      memory.load,
    ]
    const answered = runs.reduce((sum, run) => sum + run.ok, 0)
    lines.push(`No errors: all ${answered} answers under load were 2xx with a well-formed body.`, '')
  }
  lines.push(...rateTable(results), '', '| measure | value | target | result |', '| --- | ---: | --- | --- |')
  for (const row of rows(results))
    lines.push(`| ${row.measure} | ${row.value} | ${row.target} | ${row.result} |`)
  lines.push(
    '',
    `Memory run: ${memory.load.ok} of ${memory.requests} streamed requests answered 200 at ${settings.connections} connections ` +
      `(${fixed(memory.load.requestsPerSecond, 0)} req/s${memory.load.completed < memory.requests ? ', stopped by the time cap' : ''}).`,
    `Slow streams: ${memory.slow.maxOpen} of ${memory.slowCount} were open at once (reached after ` +
      `${fixed(memory.slow.msToMaxOpen / 1000, 1)} s); ${memory.slow.failed} failed; the client hung up on all of them after ` +
      `${fixed(memory.slow.seconds, 1)} s.`,
    results.consumeLogs === undefined
      ? 'Consume logs: could not be counted.'
      : `Consume logs written by the gateway during the run: ${results.consumeLogs}.`,
    '',
  )
  return lines.join('\n')
}

/** The peers' rows (`--peers`), next to the reference relay and the gateway of the same run. */
export function renderPeers(results: Measurements): string {
  if (!results.peers || results.peers.length === 0) return ''
  const reference = results.throughput.reference
  const gateway = results.throughput.gateway
  const lines = [
    '',
    '## Peers (`--peers`, same run, same mock and load)',
    '',
    '| target | non-stream req/s | stream req/s | vs reference (non-stream / stream) | vs this gateway | non-stream p50 / p99 ms @1 | stream p50 / p99 ms @1 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  const notes: string[] = []
  for (const peer of results.peers) {
    const rate = (mode: Mode) => peer.throughput[mode]?.requestsPerSecond ?? Number.NaN
    const ratio = (mode: Mode, base: Record<Mode, LoadResult>) =>
      fixed(rate(mode) / base[mode].requestsPerSecond)
    const latency = (mode: Mode) => {
      const probe = peer.latency[mode]
      return probe ? `${fixed(probe.p50Ms, 3)} / ${fixed(probe.p99Ms, 3)}` : 'n/a'
    }
    lines.push(
      `| ${peer.name} | ${fixed(rate('non-stream'), 0)} | ${fixed(rate('stream'), 0)} | ` +
        `${ratio('non-stream', reference)} / ${ratio('stream', reference)} | ` +
        `${ratio('non-stream', gateway)} / ${ratio('stream', gateway)} | ${latency('non-stream')} | ${latency('stream')} |`,
    )
    for (const mode of MODES) {
      const failure = peer.failures[mode]
      if (failure) notes.push(`${peer.name}, ${mode}: not measured; its check request ${failure}`)
    }
  }
  if (notes.length > 0) lines.push('', ...notes.map((note) => `- ${note}`))
  return `${lines.join('\n')}\n`
}
