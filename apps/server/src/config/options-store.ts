import { isOptionKey, OPTION_DEFINITIONS, OPTION_KEYS, type OptionKey } from '@one-api/contracts'
import type { Kysely } from 'kysely'
import type { Dialect } from '../db/dialect.ts'
import { readAllOptions, readOption, writeOption } from '../db/repositories/options-repository.ts'
import type { MainSchema } from '../db/schema.ts'
import { BusTopic } from '../platform/bus-topics.ts'
import { EVERYTHING, type EventBus } from '../platform/event-bus.ts'
import { checkOptionPrerequisites, normalizeOptionValue } from './option-validation.ts'

/** What ratios() hands out for an unset option: always the same object (see ratios()). */
const NO_RATIOS: Readonly<Record<string, number>> = Object.freeze({})

/**
 * Runtime settings: defaults overlaid with the `options` table, kept in memory. A change made on
 * any node is written to the database and announced on the event bus; every node then re-reads
 * that key, so all nodes change at once (one-api waited for SYNC_FREQUENCY, or a restart). Every
 * SYNC_FREQUENCY, and whenever announcements may have been missed ("*" on the bus), all are re-read.
 */
export class OptionsStore {
  private readonly values = new Map<OptionKey, string>()
  private readonly parsedJson = new Map<OptionKey, Record<string, number>>()
  private readonly listeners: Array<(key: OptionKey) => void> = []
  /** Counts each key's changes, so that a full reload never puts back a value read before one. */
  private readonly revisions = new Map<OptionKey, number>()
  private reloadTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly db: Kysely<MainSchema>,
    private readonly dialect: Dialect,
    private readonly bus: EventBus,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    for (const key of OPTION_KEYS) this.set(key, OPTION_DEFINITIONS[key].default)
    bus.subscribe(BusTopic.optionChanged, (key) => {
      const reloading = key === EVERYTHING ? this.load() : isOptionKey(key) ? this.reload(key) : undefined
      // The value in use stays; the periodic reload tries again.
      reloading?.catch(this.onError)
    })
  }

  /**
   * Reads every stored option. A changed value goes through the same path as an announced change
   * (set(): parsed ratios and onChange listeners, so caches derived from it are dropped); an
   * unchanged one is left alone, so a periodic reload empties no cache for nothing.
   */
  async load(): Promise<void> {
    const before = new Map(this.revisions)
    const stored = await readAllOptions(this.db)
    for (const [key, value] of stored) {
      if (!isOptionKey(key) || value === this.get(key)) continue
      // Changed on this node, or announced, while we read: our row may be the older value.
      if (this.revisions.get(key) !== before.get(key)) continue
      this.set(key, value)
    }
  }

  /** Re-reads all options every `periodMs` (SYNC_FREQUENCY), as one-api does with Redis on. */
  reloadEvery(periodMs: number): void {
    this.close()
    this.reloadTimer = setInterval(() => this.load().catch(this.onError), periodMs)
    this.reloadTimer.unref()
  }

  close(): void {
    if (this.reloadTimer) clearInterval(this.reloadTimer)
    this.reloadTimer = undefined
  }

  get(key: OptionKey): string {
    return this.values.get(key) ?? OPTION_DEFINITIONS[key].default
  }

  boolean(key: OptionKey): boolean {
    return this.get(key) === 'true'
  }

  number(key: OptionKey): number {
    const value = Number(this.get(key))
    return Number.isFinite(value) ? value : Number(OPTION_DEFINITIONS[key].default)
  }

  /** The same object until the option changes, so callers may cache what they derive from it. */
  ratios(key: OptionKey): Readonly<Record<string, number>> {
    return this.parsedJson.get(key) ?? NO_RATIOS
  }

  /** Every option with its current value (secrets included: callers filter for display). */
  entries(): Array<{ key: OptionKey; value: string }> {
    return OPTION_KEYS.map((key) => ({ key, value: this.get(key) }))
  }

  onChange(listener: (key: OptionKey) => void): void {
    this.listeners.push(listener)
  }

  /** Validates, stores and propagates one option; throws a 400 AppError on a bad value. */
  async update(key: OptionKey, raw: string | number | boolean): Promise<string> {
    const value = normalizeOptionValue(key, raw)
    checkOptionPrerequisites(key, value, (other) => this.get(other))
    this.bump(key)
    await writeOption(this.db, this.dialect, key, value)
    this.set(key, value)
    // Never throws: the value is stored, and a node that misses this catches up later.
    await this.bus.publish(BusTopic.optionChanged, key, `option ${key}`)
    return value
  }

  private async reload(key: OptionKey): Promise<void> {
    this.bump(key)
    const value = await readOption(this.db, key)
    if (value !== undefined) this.set(key, value)
  }

  private bump(key: OptionKey): void {
    this.revisions.set(key, (this.revisions.get(key) ?? 0) + 1)
  }

  private set(key: OptionKey, value: string): void {
    this.values.set(key, value)
    if (OPTION_DEFINITIONS[key].kind === 'json-ratio') {
      try {
        this.parsedJson.set(key, JSON.parse(value) as Record<string, number>)
      } catch {
        // A bad value written by an old one-api keeps the defaults rather than breaking billing.
        this.parsedJson.set(key, JSON.parse(OPTION_DEFINITIONS[key].default) as Record<string, number>)
      }
    }
    for (const listener of this.listeners) listener(key)
  }
}
