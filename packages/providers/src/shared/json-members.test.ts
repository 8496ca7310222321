import { describe, expect, it } from 'vitest'
import { withMembers } from './json-members.ts'

const edit = (body: string, values: Record<string, string>) =>
  withMembers(Buffer.from(body), values)?.toString()

describe('withMembers', () => {
  it('replaces a member and leaves every other byte as it was', () => {
    const body = '{ "model" : "alias", "seed": 9007199254740993, "temperature": 2.50, "n": 1e0 }'
    expect(edit(body, { model: '"gpt-4o"' })).toBe(
      '{ "model" : "gpt-4o", "seed": 9007199254740993, "temperature": 2.50, "n": 1e0 }',
    )
  })

  it('adds members the object lacks as its first ones', () => {
    expect(edit('{"a":1}', { model: '"m"', stream_options: '{"include_usage":true}' })).toBe(
      '{"model":"m","stream_options":{"include_usage":true},"a":1}',
    )
    expect(edit(' {} ', { model: '"m"' })).toBe(' {"model":"m"} ')
  })

  it('steps over nested values, strings with quotes and brackets, and keys written with escapes', () => {
    const body =
      '{"messages":[{"role":"user","content":"a \\"}\\" ]{"}],"x":{"model":"inner"},"mod\\u0065l":null}'
    const edited = edit(body, { model: '"m"', messages: '[]' })
    expect(edited).toBe('{"messages":[],"x":{"model":"inner"},"mod\\u0065l":"m"}')
    expect(JSON.parse(edited!)).toEqual({ messages: [], x: { model: 'inner' }, model: 'm' })
  })

  it('takes only its own values, and refuses what is not one well-formed object', () => {
    expect(edit('{"constructor":1}', { model: '"m"' })).toBe('{"model":"m","constructor":1}')
    for (const body of ['[1]', '{"a":', '{"a" 1}', '{"a":"open', 'null', '{"a":1,}']) {
      expect(edit(body, { model: '"m"' }), body).toBeUndefined()
    }
  })
})
