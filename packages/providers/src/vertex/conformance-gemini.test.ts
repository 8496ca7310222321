/**
 * Gemini on Vertex AI through the shared conformance suite: Google's documented
 * GenerateContentResponse bodies and alt=sse streams (the same on Vertex as on the Gemini API),
 * Vertex's error bodies, the OAuth token the pipeline's credential exchange yields as the bearer.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference
 */
import { describe, expect, it } from 'vitest'
import { geminiChatCases } from '../gemini/conformance-cases.ts'
import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { testServiceAccount } from '../testing/service-account.ts'
import { vertexAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const sse = (name: string) => reply(name, 200, { 'content-type': 'text/event-stream' })
const request = (body: Record<string, unknown>) =>
  jsonRelayRequest('chat', {
    model: 'gemini-2.0-flash',
    messages: [{ role: 'user', content: 'Hi' }],
    ...body,
  })
const account = testServiceAccount('https://oauth2.googleapis.com/token')

runAdaptorConformance(vertexAdaptor, {
  channel: {
    type: 42,
    key: `us-central1|my-project|${account.adc}`,
    accessToken: 'ya29.a0AfB_byC-test-token',
  },
  auth: ['authorization', 'Bearer ya29.a0AfB_byC-test-token'],
  ...geminiChatCases(
    (name) => reply(`gemini-${name}`),
    (name) => sse(`gemini-${name}`),
  ),
  errors: {
    badRequest: reply('error-400.json', 400),
    // Vertex answers a token it does not take with 401 UNAUTHENTICATED.
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429),
    serverError: reply('error-500.json', 500),
  },
})

describe('Gemini on Vertex AI specifics', () => {
  const channel = { type: 42, key: `us-central1|my-project|${account.adc}`, accessToken: 'ya29.token' }

  it('calls publisher google in the project and region, streams with alt=sse', () => {
    const built = vertexAdaptor.buildRequest(request({ stream: true }), channel)
    expect(built).toMatchObject({
      url: 'https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
      headers: { authorization: 'Bearer ya29.token' },
    })
    expect((built as { headers: Record<string, string> }).headers).not.toHaveProperty('x-goog-api-key')
  })

  it('serves chat and embeddings only', () => {
    const images = jsonRelayRequest('images', { model: 'imagen-3.0-generate-002', prompt: 'a cat' })
    expect(vertexAdaptor.buildRequest(images, channel)).toMatchObject({ kind: 'error', status: 400 })
  })
})
