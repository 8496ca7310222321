import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../testing/http-client.ts'
import { SmtpSink } from '../testing/smtp-sink.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'

/**
 * A local stand-in for Cloudflare's siteverify endpoint: form-encoded POST of secret, response and
 * remoteip; JSON `{success, "error-codes"}`. Like Cloudflare, each token passes once.
 */
function startFakeSiteverify(): Promise<{ server: Server; url: string; calls: URLSearchParams[] }> {
  const used = new Set<string>()
  const calls: URLSearchParams[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      const form = new URLSearchParams(body)
      calls.push(form)
      const token = form.get('response') ?? ''
      const valid = form.get('secret') === 'turnstile-secret' && token.startsWith('good-') && !used.has(token)
      used.add(token)
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ success: valid, 'error-codes': valid ? [] : ['invalid-input-response'] }))
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
        calls,
      }),
    ),
  )
}

describe('Turnstile on the routes that send mail or create accounts', () => {
  let fake: Awaited<ReturnType<typeof startFakeSiteverify>>
  let smtp: SmtpSink
  let server: TestApp
  const anonymous = () => new ApiClient(server.baseUrl)
  beforeAll(async () => {
    fake = await startFakeSiteverify()
    smtp = await SmtpSink.start()
    server = await startTestApp('sqlite', { TURNSTILE_VERIFY_URL: fake.url })
    const root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    for (const [key, value] of Object.entries({
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: smtp.account,
      SMTPToken: smtp.password,
      TurnstileSiteKey: 'turnstile-site',
      TurnstileSecretKey: 'turnstile-secret',
      TurnstileCheckEnabled: 'true',
      EmailVerificationEnabled: 'true',
    })) {
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true)
    }
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.close()
    fake?.server.close()
  })

  it('refuses the verification mail without a token or with one the service rejects', async () => {
    const missing = await anonymous().get('/api/verification?email=bot@example.com')
    expect(missing.body).toMatchObject({ success: false })
    expect(missing.body.message).toMatch(/bot check is missing/)
    const rejected = await anonymous().get('/api/verification?email=bot@example.com&turnstile=forged')
    expect(rejected.body).toMatchObject({ success: false, message: 'The bot check failed: please try again' })
    const last = fake.calls[fake.calls.length - 1]
    expect(last.get('secret')).toBe('turnstile-secret')
    expect(last.get('remoteip')).toBe('127.0.0.1')
    expect(smtp.mails.some((mail) => mail.to.includes('bot@example.com'))).toBe(false)
  })

  it('accepts the same passed token for the code and then the registration, as the console sends it', async () => {
    const sent = await anonymous().get('/api/verification?email=human@example.com&turnstile=good-1')
    expect(sent.body.success).toBe(true)
    const mail = await smtp.mailTo('human@example.com')
    const code = /<strong>([0-9a-f]{6})<\/strong>/.exec(mail.text)?.[1]
    const callsBefore = fake.calls.length
    const registered = await anonymous().post('/api/user/register?turnstile=good-1', {
      username: 'human',
      password: 'password-123',
      email: 'human@example.com',
      verification_code: code,
    })
    expect(registered.body.success).toBe(true)
    // Remembered: Cloudflare, which accepts a token once, was not asked again.
    expect(fake.calls.length).toBe(callsBefore)
  })

  it('checks the password-reset request too', async () => {
    expect((await anonymous().get('/api/reset_password?email=human@example.com')).body.success).toBe(false)
    expect(
      (await anonymous().get('/api/reset_password?email=human@example.com&turnstile=good-2')).body.success,
    ).toBe(true)
  })

  it('refuses, without crashing, when the verification service is unreachable', async () => {
    await new Promise((resolve) => fake.server.close(resolve))
    const response = await anonymous().get('/api/verification?email=late@example.com&turnstile=good-3')
    expect(response.body).toMatchObject({ success: false })
    expect(response.body.message).toMatch(/could not be verified/)
  })
})
