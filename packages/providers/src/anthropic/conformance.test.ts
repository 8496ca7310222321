import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { anthropicAdaptor } from './adaptor.ts'
import { claudeCases, helloBlocks } from './conformance-cases.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const model = 'claude-3-7-sonnet-20250219'

runAdaptorConformance(anthropicAdaptor, {
  channel: { type: 14, key: 'sk-ant-upstream' },
  auth: ['x-api-key', 'sk-ant-upstream'],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { model: 'claude', messages: [{ role: 'user', content: 'Hello, Claude' }] },
      { requestedModel: 'claude', mappedModel: model },
    ),
    sent: { model, max_tokens: 4096, messages: helloBlocks },
  },
  ...claudeCases(model),
  errors: {
    badRequest: reply('error-400.json', 400),
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429, { 'retry-after': '30' }),
    serverError: reply('error-529.json', 529),
  },
})
