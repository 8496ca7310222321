/** A ratio map as stored in the ModelRatio / CompletionRatio / GroupRatio options (parsed JSON). */
export type RatioTable = Readonly<Record<string, number>>

/**
 * The value of `key` when it is a usable ratio. Own keys only, so a model called "constructor" or
 * "__proto__" never reads Object.prototype; a negative or non-finite value is ignored rather than
 * crediting the user.
 */
export function readRatio(table: RatioTable | undefined, key: string): number | undefined {
  if (!table || !Object.hasOwn(table, key)) return undefined
  const value = table[key]
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined
}

/**
 * One-api prices web-search variants like their base model: "qwen-max-internet" costs what "qwen-max"
 * costs, and the same for Cohere's "command-*-internet".
 */
export function billingModelName(model: string): string {
  if ((model.startsWith('qwen-') || model.startsWith('command-')) && model.endsWith('-internet')) {
    return model.slice(0, -'-internet'.length)
  }
  return model
}

/**
 * Looks a model up in the live table and the defaults in one-api's order: the per-channel-type key
 * "name(type)" in live, then in defaults, then the plain name in live, then in defaults.
 */
export function lookupModelKeyed(
  model: string,
  channelType: number | undefined,
  liveRatios: RatioTable | undefined,
  defaults: RatioTable,
): number | undefined {
  const name = billingModelName(model)
  if (channelType !== undefined) {
    const typedKey = `${name}(${channelType})`
    const typed = readRatio(liveRatios, typedKey) ?? readRatio(defaults, typedKey)
    if (typed !== undefined) return typed
  }
  return readRatio(liveRatios, name) ?? readRatio(defaults, name)
}
