import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { geminiAdaptor } from './adaptor.ts'
import { geminiChatCases } from './conformance-cases.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const sse = (name: string) => reply(name, 200, { 'content-type': 'text/event-stream' })
runAdaptorConformance(geminiAdaptor, {
  channel: { type: 24, key: 'AIza-upstream-key' },
  auth: ['x-goog-api-key', 'AIza-upstream-key'],
  ...geminiChatCases(reply, sse),
  errors: {
    badRequest: reply('error-400.json', 400),
    // Google answers a bad key with 400 API_KEY_INVALID: the channel's fault, read as a 401.
    unauthorized: reply('error-400-api-key.json', 400),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429),
    serverError: reply('error-500.json', 500),
  },
})
