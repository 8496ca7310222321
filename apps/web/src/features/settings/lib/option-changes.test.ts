import { describe, expect, it } from 'vitest'
import { changedOptions, formValuesOf } from './option-changes.ts'

describe('option changes', () => {
  const stored = { ServerAddress: 'https://one.example', SMTPServer: 'smtp.example', SMTPPort: '587' }

  it('sends only the options that changed, addresses without trailing slashes', () => {
    const keys = ['ServerAddress', 'SMTPServer', 'SMTPPort'] as const
    const values = { ServerAddress: 'https://two.example//', SMTPServer: 'smtp.example', SMTPPort: ' 465 ' }
    expect(changedOptions(keys, stored, values)).toEqual([
      { key: 'ServerAddress', value: 'https://two.example' },
      { key: 'SMTPPort', value: '465' },
    ])
    expect(changedOptions(keys, stored, { ...stored, ServerAddress: 'https://one.example/' })).toEqual([])
  })

  it('sends a secret only when one was typed, and never shows the stored one', () => {
    const keys = ['SMTPToken'] as const
    expect(formValuesOf(keys, {})).toEqual({ SMTPToken: '' })
    expect(changedOptions(keys, {}, { SMTPToken: '' })).toEqual([])
    expect(changedOptions(keys, {}, { SMTPToken: '  ' })).toEqual([])
    expect(changedOptions(keys, {}, { SMTPToken: 'app-password' })).toEqual([
      { key: 'SMTPToken', value: 'app-password' },
    ])
  })

  it('sends a ratio table only when its content changed, in compact form', () => {
    const ratios = { ModelRatio: '{"gpt-4o":1.25}' }
    expect(changedOptions(['ModelRatio'], ratios, { ModelRatio: '{\n  "gpt-4o": 1.25\n}' })).toEqual([])
    expect(changedOptions(['ModelRatio'], ratios, { ModelRatio: '{\n  "gpt-4o": 2\n}' })).toEqual([
      { key: 'ModelRatio', value: '{"gpt-4o":2}' },
    ])
  })

  it('compares a missing option with its default', () => {
    expect(formValuesOf(['SystemName'], {})).toEqual({ SystemName: 'One API' })
    expect(changedOptions(['SystemName'], {}, { SystemName: 'One API' })).toEqual([])
  })
})
