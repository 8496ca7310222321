import { normaliseUsage } from '@one-api/providers'
import { describe, expect, it } from 'vitest'
import { type CostInput, chargeFor, reservationFor } from './request-cost.ts'

const chat = (pricing = { modelRatio: 1, completionRatio: 1, groupRatio: 1 }): CostInput => ({
  mode: 'chat',
  model: 'gpt-4o-mini',
  json: { messages: [{ role: 'user', content: 'hi' }] },
  pricing,
  approximate: false,
})
const PROMPT_ESTIMATE = 500

describe('chargeFor with the usage an upstream reports', () => {
  it('bills the counts reported', () => {
    const usage = normaliseUsage({ prompt_tokens: 480, completion_tokens: 20, total_tokens: 500 })
    expect(chargeFor(chat(), PROMPT_ESTIMATE, usage, { completionText: 'x' })).toEqual({
      quota: 500,
      promptTokens: 480,
      completionTokens: 20,
      estimated: false,
    })
  })

  it('takes a count left out from the total, not as 0', () => {
    const noPrompt = normaliseUsage({ completion_tokens: 20, total_tokens: 520 })
    expect(chargeFor(chat(), PROMPT_ESTIMATE, noPrompt)).toMatchObject({
      promptTokens: 500,
      completionTokens: 20,
      estimated: false,
    })
    const noCompletion = normaliseUsage({ prompt_tokens: 10, total_tokens: 510 })
    expect(chargeFor(chat(), PROMPT_ESTIMATE, noCompletion)).toMatchObject({
      promptTokens: 10,
      completionTokens: 500,
      estimated: false,
    })
  })

  it('counts locally what neither the counts nor the total give', () => {
    const noPrompt = normaliseUsage({ completion_tokens: 20 })
    expect(chargeFor(chat(), PROMPT_ESTIMATE, noPrompt)).toEqual({
      quota: 520,
      promptTokens: PROMPT_ESTIMATE,
      completionTokens: 20,
      estimated: true,
    })
    const noCompletion = normaliseUsage({ prompt_tokens: 10 })
    const charge = chargeFor(chat(), PROMPT_ESTIMATE, noCompletion, { completionText: 'hello there' })
    expect(charge).toMatchObject({ promptTokens: 10, estimated: true })
    expect(charge.completionTokens).toBeGreaterThan(0)
  })
})

describe('reservationFor', () => {
  it('holds at least 1 for a priced request whose estimate is 0', () => {
    const upload: CostInput = { ...chat(), mode: 'audio-transcription', json: undefined }
    expect(reservationFor(upload, 0, 0)).toBe(1)
    const free = { ...upload, pricing: { modelRatio: 0, completionRatio: 1, groupRatio: 1 } }
    expect(reservationFor(free, 0, 0)).toBe(0)
  })
})
