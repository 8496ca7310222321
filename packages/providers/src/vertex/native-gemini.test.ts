/**
 * Gemini API clients on Vertex AI channels: a Gemini model gets the client's own
 * GenerateContentRequest (Vertex's generateContent takes Google's same body) under publisher google
 * with the channel's token, the administrator's safety settings added when the client sent none;
 * the answer and its usage pass back unchanged. A Claude model goes through the Gemini bridge.
 */
import { describe, expect, it } from 'vitest'
import type { UpstreamRequest } from '../adaptor.ts'
import { generateContentToChatRequest } from '../gemini-client/to-chat-request.ts'
import { getAdaptor } from '../registry.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { testServiceAccount } from '../testing/service-account.ts'

type Json = Record<string, unknown>
const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const account = testServiceAccount('https://oauth2.googleapis.com/token')
const channel = {
  type: 42,
  key: `us-central1|my-project|${account.adc}`,
  accessToken: 'ya29.token',
  defaults: { geminiSafetySetting: 'BLOCK_ONLY_HIGH' },
}
const adaptor = getAdaptor(42, 'gemini')!

const clientRequest = (native: Json, model: string, stream = false) =>
  jsonRelayRequest('chat', generateContentToChatRequest(native, model, stream), {
    clientApi: 'gemini',
    native: { json: native, body: Buffer.from(JSON.stringify(native)) },
  })

describe('Gemini API clients on Vertex AI', () => {
  const native = {
    contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    generationConfig: { temperature: 0.2, thinkingConfig: { thinkingBudget: 0 } },
  }

  it('sends the client body natively to a Gemini model, with the token and the safety setting', () => {
    const built = adaptor.buildRequest(clientRequest(native, 'gemini-2.0-flash-001', true), channel)
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe(
      'https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.0-flash-001:streamGenerateContent?alt=sse',
    )
    expect(built.headers.authorization).toBe('Bearer ya29.token')
    const body = JSON.parse(String(built.body)) as Json
    expect(body).toMatchObject(native)
    expect(body.safetySettings).toHaveLength(5)
    expect(body.safetySettings).toContainEqual({
      category: 'HARM_CATEGORY_DANGEROUS_CONTENT',
      threshold: 'BLOCK_ONLY_HIGH',
    })
  })

  it('gives a content without a role the user role, which Vertex requires and the Gemini API does not', () => {
    const roleless = { contents: [{ parts: [{ text: 'hi' }] }] }
    const built = adaptor.buildRequest(clientRequest(roleless, 'gemini-2.0-flash-001'), channel)
    if (built.kind !== 'request') throw new Error(built.message)
    expect(JSON.parse(String(built.body)).contents).toEqual([{ parts: [{ text: 'hi' }], role: 'user' }])
  })

  it("passes Vertex's answer back unchanged, its usageMetadata billed", () => {
    const request = clientRequest(native, 'gemini-2.0-flash-001')
    const body = fixture('gemini-generate-content.json')
    const parsed = adaptor.parseResponse({ status: 200, headers: {}, body }, request)
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(parsed.body.equals(body)).toBe(true)
    const usage = (JSON.parse(body.toString()) as { usageMetadata: Json }).usageMetadata
    expect(parsed.usage).toMatchObject({ promptTokens: usage.promptTokenCount })
  })

  it('serves a Claude model through the bridge (rawPredict with an Anthropic body)', () => {
    const built = adaptor.buildRequest(
      clientRequest(native, 'claude-3-5-haiku@20241022'),
      channel,
    ) as UpstreamRequest
    expect(built.url).toMatch(/publishers\/anthropic\/models\/claude-3-5-haiku@20241022:rawPredict$/)
    expect(JSON.parse(String(built.body))).toMatchObject({
      anthropic_version: 'vertex-2023-10-16',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    })
  })

  it('refuses a model name Vertex cannot take before building anything, and obtains the token first', () => {
    const built = adaptor.buildRequest(clientRequest(native, 'gemini/../x'), channel)
    expect(built).toMatchObject({ kind: 'error', status: 400 })
    expect(adaptor.credentialExchange).toBeDefined()
  })
})
