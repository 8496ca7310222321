import { describe, expect, it } from 'vitest'
import { matchGeminiPath, redactKeyParameter } from './gemini-path.ts'

describe('Gemini paths', () => {
  it('reads the model, the action and the stream framing', () => {
    expect(matchGeminiPath('/v1beta/models/gemini-2.5-flash:generateContent', '')).toEqual({
      action: 'generate',
      model: 'gemini-2.5-flash',
      stream: false,
      sse: false,
    })
    expect(matchGeminiPath('/v1/models/a%2Bb:streamGenerateContent', 'alt=sse&key=x')).toMatchObject({
      model: 'a+b',
      stream: true,
      sse: true,
    })
    expect(matchGeminiPath('/v1beta/models/m:countTokens', '')).toEqual({ action: 'countTokens', model: 'm' })
    expect(matchGeminiPath('/v1beta/models/m:embedContent', '')).toBeUndefined()
    expect(matchGeminiPath('/v1beta/models/a/b:generateContent', '')).toBeUndefined()
  })

  it('keeps a key given in the query out of logs', () => {
    expect(redactKeyParameter('/v1beta/models/m:streamGenerateContent?alt=sse&key=sk-secret&x=1')).toBe(
      '/v1beta/models/m:streamGenerateContent?alt=sse&key=[redacted]&x=1',
    )
    expect(redactKeyParameter('/v1beta/models/m:generateContent?key=sk-secret')).not.toContain('sk-secret')
  })
})
