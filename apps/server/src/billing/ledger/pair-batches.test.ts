import { describe, expect, it } from 'vitest'
import { PairBatches } from './pair-batches.ts'

/** A write that records its batch and finishes when the test says so. */
function controlledWrites() {
  const batches: string[][] = []
  const finish: Array<() => void> = []
  const batcher = new PairBatches<string>(async (items) => {
    batches.push(items)
    await new Promise<void>((resolve) => finish.push(resolve))
  })
  return { batches, finish, batcher }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe('PairBatches', () => {
  it('writes what one turn queued for a key together, and what came during that write in the next one', async () => {
    const { batches, finish, batcher } = controlledWrites()
    batcher.add('1:1', 'a')
    batcher.add('1:1', 'b')
    await nextTurn()
    expect(batches).toEqual([['a', 'b']])
    // Queued while the first write is in flight: they wait for it, then go as one.
    batcher.add('1:1', 'c')
    batcher.add('1:1', 'd')
    await nextTurn()
    expect(batches).toEqual([['a', 'b']])
    finish.shift()?.()
    await nextTurn()
    expect(batches).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
    finish.shift()?.()
    await nextTurn()
    // Idle again: the next item starts a write of its own at the end of its turn.
    batcher.add('1:1', 'e')
    await nextTurn()
    expect(batches).toEqual([['a', 'b'], ['c', 'd'], ['e']])
    finish.shift()?.()
  })

  it('does not make one key wait for another', async () => {
    const { batches, finish, batcher } = controlledWrites()
    batcher.add('1:1', 'a')
    await nextTurn()
    batcher.add('2:1', 'x')
    await nextTurn()
    expect(batches).toEqual([['a'], ['x']])
    for (const done of finish.splice(0)) done()
  })
})
