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
}
