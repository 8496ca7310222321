/**
 * How deep JSON sent to the gateway may nest: objects and arrays inside one another, the outermost
 * counting 1. JSON.parse reads any depth, but JSON.stringify and every recursive walk of a value
 * overflow the stack past a few thousand levels (a 500 for one small request), and no request has a
 * use for more than a few dozen (a tool's JSON Schema included).
 */
export const MAX_JSON_DEPTH = 128

const isContainer = (value: unknown): value is object =>
  typeof value === 'object' &&
  value !== null &&
  (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype)

/**
 * Whether `value` (as JSON.parse returns it) nests deeper than `limit`. Walks with a stack of its
 * own, so any depth is measured without recursion; stops at the first container too deep.
 */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (!isContainer(value)) return false
  const containers: object[] = [value]
  const depths: number[] = [1]
  while (containers.length > 0) {
    const container = containers.pop()!
    const depth = depths.pop()!
    if (depth > limit) return true
    const children = Array.isArray(container) ? container : Object.values(container)
    for (const child of children) {
      if (typeof child !== 'object' || child === null) continue
      containers.push(child)
      depths.push(depth + 1)
    }
  }
  return false
}

/**
 * Whether JSON text of `bytes` length can nest deeper than `limit` at all: every level takes at
 * least two bytes (`[` and `]`), so shorter texts need no walk.
 */
export const mayNestDeeperThan = (bytes: number, limit = MAX_JSON_DEPTH): boolean => bytes > 2 * limit

/** The message JSON nested too deep is refused with; `what` names it (the body, or a field). */
export const tooDeepMessage = (what = 'The request body', limit = MAX_JSON_DEPTH) =>
  `${what} nests JSON objects and arrays more than ${limit} levels deep`
