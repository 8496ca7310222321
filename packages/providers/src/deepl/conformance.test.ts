/**
 * DeepL (type 38) through the shared conformance suite, where it applies: DeepL translates text,
 * so it has no tools, images or content filter, and it does not stream (a stream request is
 * answered from its JSON reply, checked in adaptor.test.ts).
 */
import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { deeplAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: fixture(name),
})
const ask = (messages: unknown[]) =>
  jsonRelayRequest(
    'chat',
    { model: 'my-translator', messages },
    { requestedModel: 'my-translator', mappedModel: 'deepl-de', receivedAt: 1_700_000_000 },
  )
const hello = [{ role: 'user', content: 'Hello, world!' }]
const system = [{ role: 'system', content: 'A greeting in a letter.' }, ...hello]
const turns = [
  { role: 'user', content: 'Dear Anna,' },
  { role: 'assistant', content: 'Liebe Anna,' },
  { role: 'user', content: 'Hello, world!' },
]
const translationOnly = 'DeepL translates text: it takes no tools'

runAdaptorConformance(deeplAdaptor, {
  channel: { type: 38, key: 'deepl-auth-key:fx' },
  auth: ['Authorization', 'DeepL-Auth-Key deepl-auth-key:fx'],
  // The mapped model names the target language.
  plain: { request: ask(hello), sent: { text: ['Hello, world!'], target_lang: 'DE' } },
  // DeepL reads the system prompt and earlier turns as context: for meaning, not translated.
  system: { request: ask(system), sent: { text: ['Hello, world!'], context: 'A greeting in a letter.' } },
  multiTurn: {
    request: ask(turns),
    sent: { text: ['Hello, world!'], context: 'Dear Anna,\nLiebe Anna,' },
  },
  text: {
    request: ask(hello),
    reply: reply('translate.json'),
    // Billed per character translated, DeepL's own unit.
    answer: { text: 'Hallo, Welt!', finishReason: 'stop', usage: { promptTokens: 13, totalTokens: 13 } },
  },
  empty: {
    request: ask([{ role: 'user', content: '' }]),
    reply: reply('translate-empty.json'),
    answer: { text: '', finishReason: 'stop', usage: { promptTokens: 0, totalTokens: 0 } },
  },
  errors: {
    badRequest: reply('error-400.json', 400),
    // DeepL refuses a wrong key with 403.
    unauthorized: reply('error-403.json', 403),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429),
    serverError: reply('error-500.json', 500),
  },
  notApplicable: {
    image: 'DeepL translates text only',
    tools: translationOnly,
    toolCall: translationOnly,
    streamedToolCall: translationOnly,
    filtered: 'DeepL has no content filter',
    stream:
      'DeepL does not stream: a stream request is answered from its JSON reply as one chunk and [DONE] (adaptor.test.ts)',
  },
})
