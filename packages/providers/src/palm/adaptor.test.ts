import { describe, expect, it } from 'vitest'
import { getAdaptor } from '../registry.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { PALM_RETIRED_MESSAGE, palmRetiredAdaptor } from './adaptor.ts'

const channel = { type: 11, key: 'AIza-palm-key' }
const chat = { model: 'chat-bison-001', messages: [{ role: 'user', content: 'Hello' }] }

describe('PaLM channels (retired by Google)', () => {
  it('is the adaptor of type 11, so that old channels load and answer', () => {
    expect(getAdaptor(11)).toBe(palmRetiredAdaptor)
  })

  it.each([
    ['chat', jsonRelayRequest('chat', chat)],
    ['stream', jsonRelayRequest('chat', { ...chat, stream: true })],
    ['embeddings', jsonRelayRequest('embeddings', { model: 'embedding-gecko-001', input: 'Hello' })],
  ])('refuses a %s request without building an upstream call, pointing to Gemini', (_, request) => {
    const built = palmRetiredAdaptor.buildRequest(request, channel)
    expect(built).toMatchObject({
      kind: 'error',
      status: 410,
      code: 'channel_type_retired',
      type: 'invalid_request_error',
      disableChannel: false,
      retryable: true,
    })
    expect(built.kind === 'error' && built.message).toBe(PALM_RETIRED_MESSAGE)
    expect(PALM_RETIRED_MESSAGE).toContain('retired by Google')
    expect(PALM_RETIRED_MESSAGE).toContain('Gemini (type 24)')
    expect(JSON.stringify(built)).not.toContain(channel.key)
  })
})
