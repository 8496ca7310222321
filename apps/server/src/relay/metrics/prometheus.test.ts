import { describe, expect, it } from 'vitest'
import { Counter, Histogram, MetricsRegistry } from './prometheus.ts'

describe('Prometheus text exposition', () => {
  it('renders counters and cumulative histogram buckets with escaped labels', () => {
    const registry = new MetricsRegistry()
    const counter = registry.register(new Counter('demo_total', 'Demo counter', ['model']))
    const histogram = registry.register(new Histogram('demo_seconds', 'Demo latency', ['model'], [0.1, 1]))
    counter.labels('a"b\\c\nd').value += 2
    const series = histogram.labels('m')
    for (const value of [0.05, 0.1, 0.5, 3]) series.observe(value)
    expect(registry.render()).toBe(
      [
        '# HELP demo_total Demo counter',
        '# TYPE demo_total counter',
        'demo_total{model="a\\"b\\\\c\\nd"} 2',
        '',
        '# HELP demo_seconds Demo latency',
        '# TYPE demo_seconds histogram',
        'demo_seconds_bucket{model="m",le="0.1"} 2',
        'demo_seconds_bucket{model="m",le="1"} 3',
        'demo_seconds_bucket{model="m",le="+Inf"} 4',
        'demo_seconds_sum{model="m"} 3.65',
        'demo_seconds_count{model="m"} 4',
        '',
      ].join('\n'),
    )
  })

  it('returns the same series for the same label values', () => {
    const counter = new Counter('c_total', 'c', ['a', 'b'])
    counter.labels('x', 'y').value += 1
    counter.labels('x', 'y').value += 1
    counter.labels('x', 'z').value += 1
    expect(counter.render()).toContain('c_total{a="x",b="y"} 2')
    expect(counter.render()).toContain('c_total{a="x",b="z"} 1')
  })
})
