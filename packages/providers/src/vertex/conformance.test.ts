/**
 * Claude on Vertex AI through the shared conformance suite. Answers and streams are Anthropic's
 * Messages shapes, as Google documents for Claude's rawPredict and streamRawPredict; errors are
 * Google's. The token is what the pipeline's credential exchange yields.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude
 */
import { describe, expect, it } from 'vitest'
import { claudeCases, claudeChatRequest, helloBlocks } from '../anthropic/conformance-cases.ts'
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
const model = 'claude-3-7-sonnet@20250219'
const request = claudeChatRequest(model)
const account = testServiceAccount('https://oauth2.googleapis.com/token')
const channel = {
  type: 42,
  key: `us-east5|my-project|${account.adc}`,
  accessToken: 'ya29.a0AfB_byC-test-token',
}

runAdaptorConformance(vertexAdaptor, {
  channel,
  auth: ['authorization', 'Bearer ya29.a0AfB_byC-test-token'],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { model: 'claude', messages: [{ role: 'user', content: 'Hello, Claude' }] },
      { requestedModel: 'claude', mappedModel: model },
    ),
    sent: { anthropic_version: 'vertex-2023-10-16', max_tokens: 4096, messages: helloBlocks },
  },
  ...claudeCases(model),
  errors: {
    badRequest: reply('error-400.json', 400),
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429),
    serverError: reply('error-500.json', 500),
  },
})

describe('Vertex AI specifics', () => {
  it('calls the region’s host with the project, region and model in the path', () => {
    const built = vertexAdaptor.buildRequest(request({ stream: true }), channel)
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-3-7-sonnet@20250219:streamRawPredict',
    )
    const global = vertexAdaptor.buildRequest(request({}), {
      ...channel,
      key: `global|my-project|${account.adc}`,
    })
    expect(global).toMatchObject({
      url: 'https://aiplatform.googleapis.com/v1/projects/my-project/locations/global/publishers/anthropic/models/claude-3-7-sonnet@20250219:rawPredict',
    })
  })

  it('takes region, project and key file from the config, the project from the key file when none is set', () => {
    const config = { region: 'europe-west1', vertex_ai_adc: account.adc }
    const built = vertexAdaptor.buildRequest(request({}), { ...channel, key: '', config })
    expect(built).toMatchObject({
      url: expect.stringContaining('/projects/mock-project/locations/europe-west1/'),
    })
  })

  it('gives Google’s bad request statuses the type a client expects', () => {
    const error = vertexAdaptor.parseResponse({ ...reply('error-400.json', 400), headers: {} }, request({}))
    expect(error).toMatchObject({
      kind: 'error',
      type: 'invalid_request_error',
      message: 'messages: Input should be a valid list',
    })
  })

  it('disables a channel whose key is no service account key file, before any call', () => {
    expect(vertexAdaptor.credentialExchange!({ type: 42, key: 'us-east5|p|not json' }, 0)).toMatchObject({
      kind: 'error',
      disableChannel: true,
    })
    expect(vertexAdaptor.credentialExchange!({ type: 42, key: account.adc }, 0)).toMatchObject({
      kind: 'error',
      message: expect.stringContaining('region'),
    })
  })

  it('signs an assertion the pipeline exchanges at the key file’s token URI', () => {
    const exchange = vertexAdaptor.credentialExchange!(channel, 1_700_000_000)
    if (exchange.kind !== 'exchange') throw new Error(exchange.message)
    expect(exchange.request.url).toBe('https://oauth2.googleapis.com/token')
    const assertion = new URLSearchParams(String(exchange.request.body)).get('assertion')!
    const claims = JSON.parse(Buffer.from(assertion.split('.')[1]!, 'base64url').toString())
    expect(claims).toEqual({
      iss: account.email,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      aud: 'https://oauth2.googleapis.com/token',
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    })
    // The secret never appears in what names the cached token.
    expect(exchange.cacheKey).not.toContain('PRIVATE KEY')
  })
})
