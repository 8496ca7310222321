/**
 * The suite refuses fixtures that leave out a case every provider has without saying why, or that
 * give a case they call not applicable: a provider cannot pass by omission.
 */
import { describe, expect, it } from 'vitest'
import { deeplAdaptor } from '../deepl/adaptor.ts'
import { type ConformanceFixtures, runAdaptorConformance } from './conformance.ts'
import { jsonRelayRequest } from './relay-request.ts'

const request = jsonRelayRequest('chat', { model: 'deepl-de', messages: [{ role: 'user', content: 'Hi' }] })
const reply = { status: 200, body: Buffer.from('{}') }
const answer = { request, reply, answer: { text: '', finishReason: 'stop' } }
const minimal: ConformanceFixtures = {
  channel: { type: 38, key: 'k' },
  auth: ['Authorization', 'DeepL-Auth-Key k'],
  plain: { request, sent: {} },
  text: answer,
  errors: {
    badRequest: reply,
    unauthorized: reply,
    modelNotFound: reply,
    rateLimited: reply,
    serverError: reply,
  },
}

describe('conformance cases declared not applicable', () => {
  it('refuses a case left out without a reason', () => {
    expect(() => runAdaptorConformance(deeplAdaptor, minimal)).toThrow(
      'conformance case system is left out without a reason in notApplicable',
    )
    const reasons = { system: 'r', multiTurn: 'r', empty: 'r' }
    expect(() => runAdaptorConformance(deeplAdaptor, { ...minimal, notApplicable: reasons })).toThrow(
      'conformance case stream is left out without a reason',
    )
  })

  it('refuses a case both given and declared not applicable', () => {
    const notApplicable = { system: 'r', multiTurn: 'r', stream: 'r', empty: 'r' }
    expect(() => runAdaptorConformance(deeplAdaptor, { ...minimal, empty: answer, notApplicable })).toThrow(
      'conformance case empty is given and declared not applicable',
    )
  })
})
