import { describe, expect, it } from 'vitest'
import { MAX_ROW_ID, parseRowId } from './user-admin.ts'

describe('parseRowId', () => {
  it('reads plain digits naming a row that can exist', () => {
    expect(parseRowId('1')).toBe(1)
    expect(parseRowId('0042')).toBe(42)
    expect(parseRowId(String(MAX_ROW_ID))).toBe(MAX_ROW_ID)
  })

  it('refuses what Number() would have let through, and ids no integer column holds', () => {
    for (const text of [
      '',
      '0',
      '-1',
      '1e3',
      ' 7',
      '7 ',
      '1.5',
      '0x10',
      String(MAX_ROW_ID + 1),
      '99999999999',
    ])
      expect(parseRowId(text), text).toBeUndefined()
  })
})
