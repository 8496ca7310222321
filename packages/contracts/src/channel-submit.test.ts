import { describe, expect, it } from 'vitest'
import { ChannelMessages, channelSubmitSchema } from './channel.ts'

const messages = (creating: boolean, input: unknown) => {
  const result = channelSubmitSchema(creating).safeParse(input)
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message])
}

describe('channel submit rules', () => {
  it('asks for a name and a key on create, a key composed from AWS fields counting', () => {
    expect(messages(true, { type: 1, models: ['gpt-4o'] })).toEqual([
      ['name', ChannelMessages.nameAndKeyRequired],
    ])
    expect(messages(true, { type: 1, name: 'a', models: ['gpt-4o'] })).toEqual([
      ['key', ChannelMessages.nameAndKeyRequired],
    ])
    const aws = {
      type: 33,
      name: 'aws',
      models: ['claude'],
      config: { ak: 'a', sk: 's', region: 'us-east-1' },
    }
    expect(messages(true, aws)).toEqual([])
    expect(messages(false, { type: 1, models: ['gpt-4o'] })).toEqual([])
  })

  it('asks for a model unless the type is proxy, and for JSON in the model redirect', () => {
    expect(messages(true, { type: 1, name: 'a', key: 'k', models: [] })).toEqual([
      ['models', ChannelMessages.modelRequired],
    ])
    expect(messages(true, { type: 43, name: 'a', key: 'k', models: [] })).toEqual([])
    expect(messages(false, { type: 1, models: ['m'], model_mapping: '{bad' })).toEqual([
      ['model_mapping', ChannelMessages.invalidModelMapping],
    ])
  })
})
