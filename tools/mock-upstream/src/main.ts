/**
 * Runs the mock upstream standalone:
 *   node_modules/.bin/tsx tools/mock-upstream/src/main.ts --port 4000 [--host 127.0.0.1] [--api-key k]... [--log-size 0]
 */
import { parseArgs } from 'node:util'
import { startMockUpstream } from './server.ts'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4000' },
    host: { type: 'string', default: '127.0.0.1' },
    'api-key': { type: 'string', multiple: true },
    'log-size': { type: 'string', default: '200' },
  },
})

const mock = await startMockUpstream({
  port: Number(values.port),
  host: values.host,
  apiKeys: values['api-key'],
  requestLogSize: Number(values['log-size']),
})
console.log(`mock upstream listening on ${mock.url} (OpenAI base URL: ${mock.url}/v1)`)

const stop = () => {
  void mock.close().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
