/**
 * Counters and histograms in Prometheus' text exposition format, kept deliberately small: the relay
 * records a few observations per request, and a general-purpose client (which validates and hashes
 * the label set on every observation) cost more than the rest of the request's bookkeeping. Here a
 * label set is resolved once to a series object, and recording is a few additions.
 * https://prometheus.io/docs/instrumenting/exposition_formats/
 */

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

const escapeLabel = (value: string) =>
  value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')

function labelText(names: readonly string[], values: readonly string[], extra = ''): string {
  const pairs = names.map((name, index) => `${name}="${escapeLabel(values[index] ?? '')}"`)
  if (extra) pairs.push(extra)
  return pairs.length > 0 ? `{${pairs.join(',')}}` : ''
}

abstract class Family<Series> {
  protected readonly series = new Map<string, { values: string[]; series: Series }>()

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  /** The series of one label set (values in labelNames order), created on first use. */
  labels(...values: string[]): Series {
    const key = values.join('\u0000')
    let entry = this.series.get(key)
    if (!entry) {
      entry = { values, series: this.create() }
      this.series.set(key, entry)
    }
    return entry.series
  }

  protected abstract create(): Series
  protected abstract lines(values: string[], series: Series): string[]
  protected abstract readonly type: string

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`]
    for (const { values, series } of this.series.values()) lines.push(...this.lines(values, series))
    return lines.join('\n')
  }
}

export interface CounterSeries {
  value: number
}

export class Counter extends Family<CounterSeries> {
  protected readonly type = 'counter'
  protected create(): CounterSeries {
    return { value: 0 }
  }
  protected lines(values: string[], series: CounterSeries): string[] {
    return [`${this.name}${labelText(this.labelNames, values)} ${series.value}`]
  }
}

export class HistogramSeries {
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  readonly counts: number[]
  sum = 0
  count = 0

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Array(bounds.length + 1).fill(0)
  }

  observe(value: number): void {
    let index = 0
    while (index < this.bounds.length && value > this.bounds[index]!) index += 1
    this.counts[index]! += 1
    this.sum += value
    this.count += 1
  }
}

export class Histogram extends Family<HistogramSeries> {
  protected readonly type = 'histogram'

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames)
  }

  protected create(): HistogramSeries {
    return new HistogramSeries(this.buckets)
  }

  protected lines(values: string[], series: HistogramSeries): string[] {
    const lines: string[] = []
    let cumulative = 0
    this.buckets.forEach((bound, index) => {
      cumulative += series.counts[index]!
      lines.push(`${this.name}_bucket${labelText(this.labelNames, values, `le="${bound}"`)} ${cumulative}`)
    })
    lines.push(`${this.name}_bucket${labelText(this.labelNames, values, 'le="+Inf"')} ${series.count}`)
    lines.push(`${this.name}_sum${labelText(this.labelNames, values)} ${series.sum}`)
    lines.push(`${this.name}_count${labelText(this.labelNames, values)} ${series.count}`)
    return lines
  }
}

/** The metrics of one process, rendered together for GET /metrics. */
export class MetricsRegistry {
  private readonly families: Array<Counter | Histogram> = []

  register<T extends Counter | Histogram>(family: T): T {
    this.families.push(family)
    return family
  }

  render(): string {
    return `${this.families.map((family) => family.render()).join('\n\n')}\n`
  }
}
