import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { TENCENT_KEYS } from './credentials.ts'
import { refuseTencentAuth } from './tencent.ts'

const [, SECRET_ID, SECRET_KEY] = (TENCENT_KEYS[0] as string).split('|') as [string, string, string]
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest()
const sha = (text: string) => createHash('sha256').update(text).digest('hex')
const now = 1_716_000_000
const body = '{"Model":"hunyuan-lite","Messages":[{"Role":"user","Content":"hi"}]}'

/** Headers signed as Tencent's documentation describes, with `body` and `timestamp`. */
function signed(payload: string, timestamp: number, secretKey = SECRET_KEY) {
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10)
  const canonical = `POST\n/\n\ncontent-type:application/json\nhost:127.0.0.1:9\nx-tc-action:chatcompletions\n\ncontent-type;host;x-tc-action\n${sha(payload)}`
  const scope = `${date}/hunyuan/tc3_request`
  const key = hmac(hmac(hmac(`TC3${secretKey}`, date), 'hunyuan'), 'tc3_request')
  const signature = createHmac('sha256', key)
    .update(`TC3-HMAC-SHA256\n${timestamp}\n${scope}\n${sha(canonical)}`)
    .digest('hex')
  return {
    authorization: `TC3-HMAC-SHA256 Credential=${SECRET_ID}/${scope}, SignedHeaders=content-type;host;x-tc-action, Signature=${signature}`,
    'content-type': 'application/json',
    host: '127.0.0.1:9',
    'x-tc-action': 'ChatCompletions',
    'x-tc-timestamp': String(timestamp),
  }
}

const codeOf = (headers: Record<string, string>, payload = body) => {
  const refusal = refuseTencentAuth(headers, Buffer.from(payload), now)
  return refusal && { status: refusal.status, code: JSON.parse(refusal.body).Response.Error.Code }
}

describe('the mock checks TC3-HMAC-SHA256 as Tencent Cloud does', () => {
  it('accepts a request signed with the SecretKey', () => {
    expect(codeOf(signed(body, now))).toBeUndefined()
  })

  it.each([
    ['a wrong SecretKey', () => codeOf(signed(body, now, 'wrong')), 'AuthFailure.SignatureFailure'],
    [
      'a body changed after signing',
      () => codeOf(signed(body, now), `${body} `),
      'AuthFailure.SignatureFailure',
    ],
    ['a timestamp six minutes old', () => codeOf(signed(body, now - 360)), 'AuthFailure.SignatureExpire'],
    [
      'an unknown SecretId',
      () =>
        codeOf({
          ...signed(body, now),
          authorization: signed(body, now).authorization.replace(SECRET_ID, 'AKIDother'),
        }),
      'AuthFailure.SecretIdNotFound',
    ],
    [
      'no Authorization',
      () => codeOf({ ...signed(body, now), authorization: '' }),
      'AuthFailure.InvalidAuthorization',
    ],
  ])('refuses %s with HTTP 200 and Response.Error', (_, check, code) => {
    expect(check()).toEqual({ status: 200, code })
  })
})
