import { describe, expect, it } from 'vitest'
import { mayNestDeeperThan, nestsDeeperThan } from './json-depth.ts'

const arrays = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`)
const objects = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)

describe('JSON nesting depth', () => {
  it('counts the outermost container as level 1, arrays and objects alike', () => {
    expect(nestsDeeperThan({}, 1)).toBe(false)
    expect(nestsDeeperThan({ a: [] }, 1)).toBe(true)
    expect(nestsDeeperThan([[1, 'x', null]], 2)).toBe(false)
    expect(nestsDeeperThan([1, [2, [3]]], 2)).toBe(true)
    for (const make of [arrays, objects]) {
      expect(nestsDeeperThan(make(10), 10)).toBe(false)
      expect(nestsDeeperThan(make(11), 10)).toBe(true)
    }
  })

  it('measures any depth without overflowing the stack, and reads scalars as depth 0', () => {
    expect(nestsDeeperThan(arrays(300_000))).toBe(true)
    expect(nestsDeeperThan(objects(200_000), 200_000)).toBe(false)
    for (const scalar of ['text', 3, null, true, undefined]) expect(nestsDeeperThan(scalar, 0)).toBe(false)
    // Only what JSON.parse makes is walked: a Buffer (a raw body) is not JSON.
    expect(nestsDeeperThan(Buffer.from('[[[[]]]]'), 1)).toBe(false)
  })

  it('finds deep nesting in any member of a wide value', () => {
    const wide = { items: Array.from({ length: 1000 }, (_, index) => ({ index })) }
    expect(nestsDeeperThan(wide, 3)).toBe(false)
    wide.items[500] = { index: 500, deep: arrays(5) } as never
    expect(nestsDeeperThan(wide, 3)).toBe(true)
  })

  it('tells which texts are too short to nest past a limit', () => {
    expect(mayNestDeeperThan(256, 128)).toBe(false)
    expect(mayNestDeeperThan(258, 128)).toBe(true)
    expect(nestsDeeperThan(arrays(128), 128)).toBe(false)
    expect(JSON.stringify(arrays(129)).length).toBe(258)
  })
})
