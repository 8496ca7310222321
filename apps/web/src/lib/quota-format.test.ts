import { describe, expect, it } from 'vitest'
import { abbreviateNumber, renderQuota } from './quota-format.ts'

describe('abbreviateNumber', () => {
  it('divides by a thousand for k, a million for M, a billion for B', () => {
    expect(abbreviateNumber(9999)).toBe('9999')
    expect(abbreviateNumber(10_000)).toBe('10k')
    expect(abbreviateNumber(12_345)).toBe('12.3k')
    expect(abbreviateNumber(999_999)).toBe('1000k')
    expect(abbreviateNumber(1_000_000)).toBe('1M')
    expect(abbreviateNumber(2_500_000)).toBe('2.5M')
    expect(abbreviateNumber(1_230_000_000)).toBe('1.2B')
    expect(abbreviateNumber(0)).toBe('0')
  })
})

describe('renderQuota', () => {
  it('shows dollars with two decimals when currency display is on', () => {
    expect(renderQuota(250_000, true, 500_000)).toBe('$0.50')
    expect(renderQuota(250_000, false, 500_000)).toBe('250k')
  })
})
