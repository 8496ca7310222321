import {
  Counter,
  type CounterSeries,
  Histogram,
  type HistogramSeries,
  MetricsRegistry,
} from './metrics/prometheus.ts'

const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120,
]
const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1]

interface RequestSeries {
  statuses: Map<number, CounterSeries>
  duration: HistogramSeries
  upstream: HistogramSeries
  overhead: HistogramSeries
}

/** The status a request is counted under when its client left before it was served (nginx's). */
export const CLIENT_CLOSED_REQUEST = 499

/** Prometheus metrics of the relay, per channel and model, including the gateway's own overhead. */
export class RelayMetrics {
  readonly registry = new MetricsRegistry()
  readonly requests = this.registry.register(
    new Counter('oneapi_relay_requests_total', 'Relay requests by channel, model and final HTTP status', [
      'channel',
      'model',
      'status',
    ]),
  )
  readonly duration = this.registry.register(
    new Histogram(
      'oneapi_relay_request_duration_seconds',
      'Whole relay request time, from arrival to the last byte sent',
      ['channel', 'model'],
      LATENCY_BUCKETS,
    ),
  )
  readonly upstreamDuration = this.registry.register(
    new Histogram(
      'oneapi_upstream_duration_seconds',
      'Time spent waiting on the upstream provider',
      ['channel', 'model'],
      LATENCY_BUCKETS,
    ),
  )
  readonly overhead = this.registry.register(
    new Histogram(
      'oneapi_gateway_overhead_seconds',
      "The gateway's own time per request: everything except waiting on the upstream",
      ['channel', 'model', 'mode'],
      OVERHEAD_BUCKETS,
    ),
  )
  readonly retries = this.registry.register(
    new Counter('oneapi_relay_retries_total', 'Attempts moved to another channel after a retryable failure', [
      'channel',
      'model',
    ]),
  )

  // The series of each channel/model/mode, looked up once: a request records with one map lookup.
  private readonly bundles = new Map<string, RequestSeries>()

  /** Records one finished relay request. `channel` is 'none' when no channel served it. */
  recordRequest(
    channel: string,
    model: string,
    mode: string,
    status: number,
    totalSeconds: number,
    upstreamSeconds: number,
  ): void {
    const key = `${channel}\u0000${model}\u0000${mode}`
    let bundle = this.bundles.get(key)
    if (!bundle) {
      bundle = {
        statuses: new Map(),
        duration: this.duration.labels(channel, model),
        upstream: this.upstreamDuration.labels(channel, model),
        overhead: this.overhead.labels(channel, model, mode),
      }
      this.bundles.set(key, bundle)
    }
    let requests = bundle.statuses.get(status)
    if (!requests) {
      requests = this.requests.labels(channel, model, String(status))
      bundle.statuses.set(status, requests)
    }
    requests.value += 1
    bundle.duration.observe(totalSeconds)
    bundle.upstream.observe(upstreamSeconds)
    bundle.overhead.observe(totalSeconds - upstreamSeconds)
  }

  /** A request refused before any channel was tried (auth, quota, a bad body, no channel). */
  recordRefused(mode: string, status: number, totalSeconds: number): void {
    this.recordRequest('none', 'none', mode, status, totalSeconds, 0)
  }

  recordRetry(channel: string, model: string): void {
    this.retries.labels(channel, model).value += 1
  }
}
