/**
 * Baidu Qianfan v1 as its API checks and answers it: `POST /oauth/2.0/token` with
 * grant_type=client_credentials and a known client_id/client_secret issues an access token (30
 * days), refused otherwise with OAuth's error; the Wenxin workshop chat and embeddings endpoints
 * take only a token issued and not revoked (else HTTP 200 with error_code 110), answer `result`
 * with usage, or a stream of `data:` events ending with `is_end: true`.
 * https://cloud.baidu.com/doc/WENXINWORKSHOP/s/Ilkkrb0i5
 * https://cloud.baidu.com/doc/WENXINWORKSHOP/s/jlil56u11
 */
import { randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { sendJson } from '../errors.ts'
import type { FaultPlan } from '../faults.ts'
import type { Json } from '../json.ts'
import { writeStream } from '../stream-writer.ts'
import { completionPieces, generatedText, piece } from '../usage-rules.ts'
import { BAIDU_KEYS } from './credentials.ts'

const secrets = new Map(BAIDU_KEYS.map((key) => key.split('|') as [string, string]))
const TOKEN_LIFETIME_SECONDS = 2_592_000
/** Tokens issued, by value: valid until revoked (they expire after 30 days, beyond any test). */
const issued = new Set<string>()

/** Makes every token issued so far invalid, as when Baidu expires or revokes them (tests). */
export function revokeBaiduTokens(): void {
  issued.clear()
}

/** The token endpoint. */
export function handleBaiduToken(response: ServerResponse, query: URLSearchParams) {
  const id = query.get('client_id') ?? ''
  if (query.get('grant_type') !== 'client_credentials') {
    return sendJson(
      response,
      400,
      JSON.stringify({ error: 'unsupported_grant_type', error_description: 'unsupported grant type' }),
    )
  }
  if (!secrets.has(id)) {
    return sendJson(
      response,
      401,
      JSON.stringify({ error: 'invalid_client', error_description: 'unknown client id' }),
    )
  }
  if (secrets.get(id) !== query.get('client_secret')) {
    return sendJson(
      response,
      401,
      JSON.stringify({ error: 'invalid_client', error_description: 'Client authentication failed' }),
    )
  }
  const token = `24.${randomBytes(16).toString('hex')}.${TOKEN_LIFETIME_SECONDS}.${Math.floor(Date.now() / 1000)}.282335-mock`
  issued.add(token)
  sendJson(
    response,
    200,
    JSON.stringify({
      access_token: token,
      expires_in: TOKEN_LIFETIME_SECONDS,
      scope: 'public wise_adapt',
      session_key: 'mock',
      session_secret: 'mock',
    }),
  )
}

const words = (text: unknown): number =>
  typeof text === 'string' && text.trim() !== '' ? text.trim().split(/\s+/).length : 0

/** A workshop call: the token checked, then chat (JSON or stream) or embeddings. */
export function handleBaiduWorkshop(
  response: ServerResponse,
  query: URLSearchParams,
  kind: 'chat' | 'embeddings',
  json: Json,
  faults: FaultPlan,
): Promise<void> | void {
  if (!issued.has(query.get('access_token') ?? '')) {
    return sendJson(
      response,
      200,
      JSON.stringify({ error_code: 110, error_msg: 'Access token invalid or no longer valid' }),
    )
  }
  const id = `as-${randomBytes(5).toString('hex')}`
  const created = Math.floor(Date.now() / 1000)
  if (kind === 'embeddings') {
    const inputs = Array.isArray(json.input) ? json.input : []
    const prompt = Math.max(
      1,
      inputs.reduce((sum: number, input) => sum + words(input), 0),
    )
    const data = inputs.map((_, index) => ({ object: 'embedding', embedding: [0.1, 0.2, 0.3, 0.4], index }))
    return sendJson(
      response,
      200,
      JSON.stringify({
        id,
        object: 'embedding_list',
        created,
        data,
        usage: { prompt_tokens: prompt, total_tokens: prompt },
      }),
    )
  }
  const messages = Array.isArray(json.messages) ? (json.messages as Json[]) : []
  if (messages.length === 0 || messages.length % 2 === 0 || messages[0]?.role !== 'user') {
    return sendJson(
      response,
      200,
      JSON.stringify({ error_code: 336006, error_msg: 'the length of messages must be an odd number' }),
    )
  }
  const prompt = Math.max(
    1,
    words(json.system) + messages.reduce((sum, message) => sum + words(message.content), 0),
  )
  const { pieces } = completionPieces({ max_tokens: json.max_output_tokens }, faults.chunks)
  const usage = (done: number) => ({
    prompt_tokens: prompt,
    completion_tokens: done,
    total_tokens: prompt + done,
  })
  const head = {
    id,
    object: 'chat.completion',
    created,
    is_truncated: false,
    need_clear_history: false,
    finish_reason: 'normal',
  }
  if (json.stream !== true) {
    return sendJson(
      response,
      200,
      JSON.stringify({ ...head, result: generatedText(pieces), usage: usage(pieces) }),
    )
  }
  const event = (index: number, result: string, end: boolean) =>
    `data: ${JSON.stringify({ ...head, sentence_id: index, is_end: end, result, usage: usage(end ? pieces : index + 1) })}\n\n`
  const events = [
    ...Array.from({ length: pieces }, (_, index) => event(index, piece(index), false)),
    event(pieces, '', true),
  ]
  return writeStream(response, { length: events.length, event: (index) => events[index]! }, faults)
}
