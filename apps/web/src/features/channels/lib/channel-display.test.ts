import { describe, expect, it } from 'vitest'
import { balanceDisplay, channelStatusDisplay, responseTimeDisplay } from './channel-display.ts'

const quota = { displayInCurrency: false, quotaPerUnit: 500_000 }

describe('channel display rules', () => {
  it('colours the status: enabled green, manually disabled red, automatically disabled yellow', () => {
    expect(channelStatusDisplay(1).color).toBe('green')
    expect(channelStatusDisplay(2).color).toBe('red')
    expect(channelStatusDisplay(3).color).toBe('yellow')
    expect(channelStatusDisplay(9)).toEqual({ label: 'channels.status.unknown', color: 'gray' })
  })

  it('shows the response time in seconds with two decimals, coloured by its bracket', () => {
    expect(responseTimeDisplay(0)).toEqual({ text: undefined, color: 'gray' })
    expect(responseTimeDisplay(1000)).toEqual({ text: '1.00 s', color: 'green' })
    expect(responseTimeDisplay(1001).color).toBe('lime')
    expect(responseTimeDisplay(3000).color).toBe('lime')
    expect(responseTimeDisplay(4567)).toEqual({ text: '4.57 s', color: 'yellow' })
    expect(responseTimeDisplay(5001).color).toBe('red')
  })

  it('shows each type balance in its unit, and none for other types', () => {
    expect(balanceDisplay(1, 12.5, quota)).toBe('$12.50')
    expect(balanceDisplay(8, 3, quota)).toBe('$3.00')
    expect(balanceDisplay(4, 7, quota)).toBe('¥7.00')
    expect(balanceDisplay(12, 7, quota)).toBe('¥7.00')
    expect(balanceDisplay(5, 250_000, quota)).toBe('¥25.00')
    expect(balanceDisplay(10, 25_000, quota)).toBe('25k')
    expect(balanceDisplay(13, 250_000, { displayInCurrency: true, quotaPerUnit: 500_000 })).toBe('$0.50')
    expect(balanceDisplay(50, 1, quota)).toBeUndefined()
  })
})
