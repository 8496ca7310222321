/**
 * Prepares a freshly started gateway through its management API, as an administrator would: sign in
 * as root, one OpenAI-compatible channel to the mock for the benchmark model and one for the slow
 * stream model, a price for the slow model (unknown models are refused, not guessed), and a token.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { ApiClient } from '../../apps/server/src/testing/http-client.ts'

export const BENCH_MODEL = 'gpt-4o-mini'
/**
 * Mock directives in the model name: 150 chunks 200 ms apart, so each stream would last 30 s, longer
 * than the slow-stream phase, which hangs up once all streams have been open together.
 */
export const SLOW_MODEL = 'gpt-4o-mini+chunk-delay-ms=200+chunks=150'
// gpt-4o-mini's own input price ratio (0.15 $ / 1M tokens in one-api units).
const SLOW_MODEL_RATIO = 0.075

export interface GatewayAccess {
  /** The sk- key clients use. */
  tokenKey: string
}

async function expectSuccess(what: string, call: Promise<{ status: number; body: unknown }>) {
  const response = await call
  const body = response.body as { success?: boolean; message?: string; data?: unknown }
  if (response.status !== 200 || body?.success !== true) {
    throw new Error(`${what} failed: HTTP ${response.status} ${JSON.stringify(body).slice(0, 300)}`)
  }
  return body.data
}

export async function setUpGateway(
  gatewayUrl: string,
  mockUrl: string,
  rootPassword: string,
  /** 50 (OpenAI-compatible) or 14 (Anthropic: the mock's Messages API, translated both ways). */
  channelType = 50,
): Promise<GatewayAccess> {
  const api = new ApiClient(gatewayUrl)
  await expectSuccess(
    'sign-in as root',
    api.post('/api/user/login', { username: 'root', password: rootPassword }),
  )
  for (const [name, model] of [
    ['bench mock', BENCH_MODEL],
    ['bench mock slow streams', SLOW_MODEL],
  ]) {
    await expectSuccess(
      `creating channel "${name}"`,
      api.post('/api/channel/', {
        name,
        type: channelType,
        key: 'sk-bench-upstream',
        base_url: channelType === 50 ? `${mockUrl}/v1` : mockUrl,
        models: [model],
        group: ['default'],
      }),
    )
  }
  await expectSuccess(
    'pricing the slow model',
    api.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [SLOW_MODEL]: SLOW_MODEL_RATIO }) }),
  )
  const token = (await expectSuccess(
    'creating the token',
    api.post('/api/token/', { name: 'bench', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
  )) as { key?: string }
  if (typeof token?.key !== 'string' || token.key === '') {
    throw new Error(`the token API returned no key: ${JSON.stringify(token)}`)
  }
  // The management API gives the key as stored (one-api's 48 characters); clients send it as sk-<key>.
  if (!token.key.startsWith('sk-')) token.key = `sk-${token.key}`
  // Routing reads channels through a cache refreshed on change events; give it a moment.
  await sleep(200)
  return { tokenKey: token.key }
}

/**
 * One request of each kind through `url` before any load, so a broken target fails the run with its
 * answer instead of producing a table of errors.
 */
export async function checkTarget(name: string, url: string, headers: Record<string, string>): Promise<void> {
  for (const stream of [false, true]) {
    const problem = await answerProblem(url, headers, stream)
    if (problem) throw new Error(`${name} (${stream ? 'stream' : 'non-stream'}) ${problem}`)
  }
}

/** What is wrong with the target's answer to one benchmark request, or undefined when it is right. */
export async function answerProblem(
  url: string,
  headers: Record<string, string>,
  stream: boolean,
): Promise<string | undefined> {
  const response = await fetch(url, { method: 'POST', headers, body: chatBody(BENCH_MODEL, stream) })
  const text = await response.text()
  const good =
    response.status === 200 && (stream ? text.trimEnd().endsWith('data: [DONE]') : text.includes('"choices"'))
  return good ? undefined : `answered HTTP ${response.status}: ${text.slice(0, 300)}`
}

/** The benchmark's small chat request. */
export function chatBody(model: string, stream: boolean): string {
  const body: Record<string, unknown> = {
    model,
    messages: [{ role: 'user', content: 'Say hello in one short sentence.' }],
  }
  if (stream) body.stream = true
  return JSON.stringify(body)
}
