import { Counter, Histogram, Registry } from 'prom-client'

const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120,
]
const OVERHEAD_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1]

/** Prometheus metrics of the relay, per channel and model, including the gateway's own overhead. */
export class RelayMetrics {
  readonly registry = new Registry()
  readonly requests = new Counter({
    name: 'oneapi_relay_requests_total',
    help: 'Relay requests by channel, model and final HTTP status',
    labelNames: ['channel', 'model', 'status'],
    registers: [this.registry],
  })
  readonly duration = new Histogram({
    name: 'oneapi_relay_request_duration_seconds',
    help: 'Whole relay request time, from arrival to the last byte sent',
    labelNames: ['channel', 'model'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  })
  readonly upstreamDuration = new Histogram({
    name: 'oneapi_upstream_duration_seconds',
    help: 'Time spent waiting on the upstream provider',
    labelNames: ['channel', 'model'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  })
  readonly overhead = new Histogram({
    name: 'oneapi_gateway_overhead_seconds',
    help: "The gateway's own time per request: everything except waiting on the upstream",
    labelNames: ['mode'],
    buckets: OVERHEAD_BUCKETS,
    registers: [this.registry],
  })
  readonly retries = new Counter({
    name: 'oneapi_relay_retries_total',
    help: 'Attempts moved to another channel after a retryable failure',
    labelNames: ['channel', 'model'],
    registers: [this.registry],
  })

  // Labelled children, looked up once per channel/model pair: prom-client hashes a labels
  // object on every call otherwise, which costs more than the observation itself.
  private readonly children = new Map<string, RequestSeries>()

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
    let series = this.children.get(key)
    if (!series) {
      series = {
        statuses: new Map(),
        duration: this.duration.labels(channel, model),
        upstream: this.upstreamDuration.labels(channel, model),
        overhead: this.overhead.labels(mode),
      }
      this.children.set(key, series)
    }
    let requests = series.statuses.get(status)
    if (!requests) {
      requests = this.requests.labels(channel, model, String(status))
      series.statuses.set(status, requests)
    }
    requests.inc()
    series.duration.observe(totalSeconds)
    series.upstream.observe(upstreamSeconds)
    series.overhead.observe(totalSeconds - upstreamSeconds)
  }
}

interface RequestSeries {
  statuses: Map<number, { inc(): void }>
  duration: { observe(value: number): void }
  upstream: { observe(value: number): void }
  overhead: { observe(value: number): void }
}
