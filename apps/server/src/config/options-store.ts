import { isOptionKey, OPTION_DEFINITIONS, OPTION_KEYS, type OptionKey } from '@one-api/contracts'
import type { Kysely } from 'kysely'
import type { Dialect } from '../db/database.ts'
import { readAllOptions, readOption, writeOption } from '../db/repositories/options-repository.ts'
import type { MainSchema } from '../db/schema.ts'
import type { EventBus } from '../platform/event-bus.ts'
import { checkOptionPrerequisites, normalizeOptionValue } from './option-validation.ts'

const TOPIC = 'option-changed'
/** What ratios() hands out for an unset option: always the same object (see ratios()). */
const NO_RATIOS: Readonly<Record<string, number>> = Object.freeze({})

/**
 * Runtime settings: defaults overlaid with the `options` table, kept in memory. A change made on
 * any node is written to the database and announced on the event bus; every node then re-reads
 * that key, so all nodes change at once (one-api waited for SYNC_FREQUENCY, or a restart).
 */
export class OptionsStore {
  private readonly values = new Map<OptionKey, string>()
  private readonly parsedJson = new Map<OptionKey, Record<string, number>>()
  private readonly listeners: Array<(key: OptionKey) => void> = []

  constructor(
    private readonly db: Kysely<MainSchema>,
    private readonly dialect: Dialect,
    private readonly bus: EventBus,
  ) {
    for (const key of OPTION_KEYS) this.set(key, OPTION_DEFINITIONS[key].default)
    bus.subscribe(TOPIC, (key) => {
      if (isOptionKey(key)) void this.reload(key)
    })
  }

  async load(): Promise<void> {
    const stored = await readAllOptions(this.db)
    for (const [key, value] of stored) {
      if (isOptionKey(key)) this.set(key, value)
    }
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
    await writeOption(this.db, this.dialect, key, value)
    this.set(key, value)
    await this.bus.publish(TOPIC, key)
    return value
  }

  private async reload(key: OptionKey): Promise<void> {
    const value = await readOption(this.db, key)
    if (value !== undefined) this.set(key, value)
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
