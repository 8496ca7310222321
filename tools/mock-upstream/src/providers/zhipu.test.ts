import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ZHIPU_KEYS } from './credentials.ts'
import { refuseZhipuAuth } from './zhipu.ts'

const [KEY] = ZHIPU_KEYS as [string]
const [ID, SECRET] = KEY.split('.') as [string, string]
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

function jwt(claims: Record<string, unknown>, secret = SECRET, header = { alg: 'HS256', sign_type: 'SIGN' }) {
  const signed = `${part(header)}.${part(claims)}`
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`
}

const now = 1_700_000_000_000
const valid = { api_key: ID, timestamp: now, exp: now + 60_000 }
const codeOf = (authorization?: string) => {
  const refusal = refuseZhipuAuth(authorization === undefined ? {} : { authorization }, now)
  return refusal && { status: refusal.status, code: JSON.parse(refusal.body).error.code }
}

describe('the mock checks Zhipu tokens as Zhipu does', () => {
  it('accepts a token signed with the key secret, alone or after Bearer', () => {
    expect(codeOf(jwt(valid))).toBeUndefined()
    expect(codeOf(`Bearer ${jwt(valid)}`)).toBeUndefined()
  })

  it.each([
    ['no header', undefined, '1001'],
    ['not a JWT', 'mock-zhipu-id.mock-zhipu-secret', '1002'],
    ['no sign_type', jwt(valid, SECRET, { alg: 'HS256' } as never), '1002'],
    ['an unknown key id', jwt({ ...valid, api_key: 'someone-else' }), '1000'],
    ['the wrong secret', jwt(valid, 'wrong'), '1004'],
    ['an expired token', jwt({ ...valid, exp: now - 1 }), '1003'],
  ])('refuses %s with 401', (_, authorization, code) => {
    expect(codeOf(authorization)).toEqual({ status: 401, code })
  })
})
