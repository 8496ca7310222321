import { type RatioTable, readRatio } from './ratio-table.ts'

/**
 * The price multiplier of a user group from the GroupRatio option. A group the option does not list
 * (for example one removed after users were put in it) pays list price, as in one-api.
 */
export function resolveGroupRatio(group: string, liveGroupRatios?: RatioTable): number {
  return readRatio(liveGroupRatios, group) ?? 1
}
