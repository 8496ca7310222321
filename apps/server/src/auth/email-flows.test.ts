import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, registerAndLogin } from '../testing/http-client.ts'
import { SmtpSink } from '../testing/smtp-sink.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'
import { POSTGRES_URL, REDIS_URL, testDialects } from '../testing/test-databases.ts'

async function setOptions(baseUrl: string, values: Record<string, string>): Promise<void> {
  const root = new ApiClient(baseUrl)
  await root.login('root', ROOT_PASSWORD)
  for (const [key, value] of Object.entries(values)) {
    const response = await root.put('/api/option/', { key, value })
    if (!response.body.success) throw new Error(`option ${key}: ${response.body.message}`)
  }
}

function smtpOptions(smtp: SmtpSink): Record<string, string> {
  return {
    SMTPServer: '127.0.0.1',
    SMTPPort: String(smtp.port),
    SMTPAccount: smtp.account,
    SMTPToken: smtp.password,
    SMTPFrom: 'noreply@example.com',
  }
}

function codeIn(text: string): string {
  const match = /verification code is: <strong>([0-9a-f]{6})<\/strong>/.exec(text)
  if (!match) throw new Error(`no code in mail:\n${text}`)
  return match[1]
}

function resetLinkIn(text: string): URL {
  const match = /href="([^"]+)"/.exec(text)
  if (!match) throw new Error(`no link in mail:\n${text}`)
  return new URL(match[1].replaceAll('&#38;', '&'))
}

describe.each(testDialects())('email verification and password reset on %s', (dialect) => {
  let server: TestApp
  let smtp: SmtpSink
  const anonymous = () => new ApiClient(server.baseUrl)
  beforeAll(async () => {
    smtp = await SmtpSink.start()
    server = await startTestApp(dialect)
    await setOptions(server.baseUrl, {
      ...smtpOptions(smtp),
      ServerAddress: 'https://console.example.com',
      SystemName: 'Test Gateway',
    })
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.close()
  })

  it('registers with the code mailed over SMTP when EmailVerificationEnabled', async () => {
    await setOptions(server.baseUrl, { EmailVerificationEnabled: 'true' })
    const withoutCode = await anonymous().post('/api/user/register', {
      username: 'mailuser',
      password: 'password-123',
    })
    expect(withoutCode.body.success).toBe(false)
    expect(withoutCode.body.message).toMatch(/code/)
    const before = smtp.mails.length
    const sent = await anonymous().get('/api/verification?email=Mail.User@Example.com')
    expect(sent.body).toMatchObject({ success: true })
    const mail = await smtp.mailTo('mail.user@example.com', before)
    expect(mail.from).toBe('noreply@example.com')
    expect(mail.text).toContain('Test Gateway email verification')
    const code = codeIn(mail.text)
    const wrong = await anonymous().post('/api/user/register', {
      username: 'mailuser',
      password: 'password-123',
      email: 'mail.user@example.com',
      verification_code: code === '000000' ? '000001' : '000000',
    })
    expect(wrong.body).toMatchObject({
      success: false,
      message: 'The verification code is wrong or has expired',
    })
    const registered = await anonymous().post('/api/user/register', {
      username: 'mailuser',
      password: 'password-123',
      email: 'mail.user@example.com',
      verification_code: code,
    })
    expect(registered.body.success).toBe(true)
    const client = anonymous()
    await client.login('mailuser', 'password-123')
    expect((await client.get('/api/user/self')).body.data.email).toBe('mail.user@example.com')
    // The address is taken now: no second code for it.
    const again = await anonymous().get('/api/verification?email=mail.user@example.com')
    expect(again.body.success).toBe(false)
    await setOptions(server.baseUrl, { EmailVerificationEnabled: 'false' })
  })

  it('limits resending to one mail per address every 30 seconds', async () => {
    const first = await anonymous().get('/api/verification?email=resend@example.com')
    expect(first.body.success).toBe(true)
    const second = await anonymous().get('/api/verification?email=resend@example.com')
    expect(second.status).toBe(429)
    expect(second.body.success).toBe(false)
    expect(second.body.message).toMatch(/30 seconds/)
    expect((await anonymous().get('/api/verification?email=other@example.com')).body.success).toBe(true)
  })

  it('honours the email domain whitelist', async () => {
    await setOptions(server.baseUrl, {
      EmailDomainRestrictionEnabled: 'true',
      EmailDomainWhitelist: 'example.com,corp.test',
    })
    const before = smtp.mails.length
    const refused = await anonymous().get('/api/verification?email=someone@elsewhere.org')
    expect(refused.body.success).toBe(false)
    expect(refused.body.message).toMatch(/domain/)
    expect((await anonymous().get('/api/verification?email=ok@corp.test')).body.success).toBe(true)
    await smtp.mailTo('ok@corp.test', before)
    expect(smtp.mails.slice(before).some((mail) => mail.to.includes('someone@elsewhere.org'))).toBe(false)
    await setOptions(server.baseUrl, { EmailDomainRestrictionEnabled: 'false' })
  })

  it('refuses a malformed address and answers when SMTP is not configured', async () => {
    expect((await anonymous().get('/api/verification?email=not-an-address')).body.success).toBe(false)
    await setOptions(server.baseUrl, { SMTPServer: '' })
    const unconfigured = await anonymous().get('/api/verification?email=nosmtp@example.com')
    expect(unconfigured.body).toMatchObject({ success: false })
    expect(unconfigured.body.message).toMatch(/SMTP/)
    await setOptions(server.baseUrl, { SMTPServer: '127.0.0.1' })
  })

  it('binds an email with its code once, and refuses an address bound to someone else', async () => {
    const ivan = await registerAndLogin(server.baseUrl, 'ivan')
    const before = smtp.mails.length
    await anonymous().get('/api/verification?email=ivan@example.com')
    const code = codeIn((await smtp.mailTo('ivan@example.com', before)).text)
    const wrongCode = await ivan.get(`/api/oauth/email/bind?email=ivan@example.com&code=zzzzzz`)
    expect(wrongCode.body.success).toBe(false)
    const bound = await ivan.get(`/api/oauth/email/bind?email=ivan@example.com&code=${code}`)
    expect(bound.body.success).toBe(true)
    expect((await ivan.get('/api/user/self')).body.data.email).toBe('ivan@example.com')
    const judy = await registerAndLogin(server.baseUrl, 'judy')
    const replayed = await judy.get(`/api/oauth/email/bind?email=ivan@example.com&code=${code}`)
    expect(replayed.body).toMatchObject({
      success: false,
      message: 'This email address is already used by another account',
    })
    expect((await anonymous().get(`/api/oauth/email/bind?email=x@example.com&code=${code}`)).status).toBe(401)
  })

  it('refuses a code once it has expired', async () => {
    const kim = await registerAndLogin(server.baseUrl, 'kim')
    await server.context.oneTimeCodes.put('email-verification:kim@example.com', 'abc123', 1)
    await new Promise((resolve) => setTimeout(resolve, 2_100))
    const expired = await kim.get('/api/oauth/email/bind?email=kim@example.com&code=abc123')
    expect(expired.body).toMatchObject({
      success: false,
      message: 'The verification code is wrong or has expired',
    })
  })

  it('resets a forgotten password from the mailed link, once, ending the old sessions', async () => {
    const leo = await registerAndLogin(server.baseUrl, 'leo')
    await server.context.db
      .updateTable('users')
      .set({ email: 'leo@example.com' })
      .where('username', '=', 'leo')
      .execute()
    const before = smtp.mails.length
    const asked = await anonymous().get('/api/reset_password?email=leo@example.com')
    expect(asked.body.success).toBe(true)
    const link = resetLinkIn((await smtp.mailTo('leo@example.com', before)).text)
    expect(link.origin + link.pathname).toBe('https://console.example.com/user/reset')
    expect(link.searchParams.get('email')).toBe('leo@example.com')
    const token = link.searchParams.get('token') ?? ''
    expect(token).toMatch(/^[0-9a-f]{32}$/)
    const reset = await anonymous().post('/api/user/reset', { email: 'leo@example.com', token })
    expect(reset.body.success).toBe(true)
    const password = reset.body.data as string
    expect(password).toMatch(/^[0-9A-Za-z]{12}$/)
    expect((await leo.get('/api/user/self')).status).toBe(401)
    await anonymous().login('leo', password)
    const replay = await anonymous().post('/api/user/reset', { email: 'leo@example.com', token })
    expect(replay.body.success).toBe(false)
    expect(
      (await anonymous().post('/api/user/login', { username: 'leo', password: 'password-123' })).body.success,
    ).toBe(false)
  })

  it('answers the same for an unknown address and sends nothing', async () => {
    const before = smtp.mails.length
    const unknown = await anonymous().get('/api/reset_password?email=nobody-here@example.com')
    expect(unknown.body.success).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(smtp.mails.slice(before).some((mail) => mail.to.includes('nobody-here@example.com'))).toBe(false)
    const forged = await anonymous().post('/api/user/reset', {
      email: 'nobody-here@example.com',
      token: 'f'.repeat(32),
    })
    expect(forged.body.success).toBe(false)
  })
})

describe.skipIf(!REDIS_URL)('email codes across two nodes sharing Redis', () => {
  let first: TestApp
  let second: TestApp
  let smtp: SmtpSink
  beforeAll(async () => {
    smtp = await SmtpSink.start()
    const dialect = POSTGRES_URL ? 'postgres' : 'sqlite'
    first = await startTestApp(dialect, { REDIS_CONN_STRING: REDIS_URL ?? '' })
    second = await startTestApp(dialect, { REDIS_CONN_STRING: REDIS_URL ?? '' }, { shareDatabaseWith: first })
    await setOptions(first.baseUrl, { ...smtpOptions(smtp), EmailVerificationEnabled: 'true' })
    await second.context.options.load()
  })
  afterAll(async () => {
    await second?.close()
    await first?.close()
    await smtp?.close()
  })

  it('accepts on one node the code mailed by the other, and only once', async () => {
    const address = `node-${Date.now()}@example.com`
    expect((await new ApiClient(first.baseUrl).get(`/api/verification?email=${address}`)).body.success).toBe(
      true,
    )
    const code = codeIn((await smtp.mailTo(address)).text)
    // The resend limit is shared as well.
    expect((await new ApiClient(second.baseUrl).get(`/api/verification?email=${address}`)).status).toBe(429)
    const body = {
      username: `node${Date.now() % 1e6}`,
      password: 'password-123',
      email: address,
      verification_code: code,
    }
    expect((await new ApiClient(second.baseUrl).post('/api/user/register', body)).body.success).toBe(true)
    const replay = await new ApiClient(first.baseUrl).post('/api/user/register', {
      ...body,
      username: 'replayer',
    })
    expect(replay.body.success).toBe(false)
  })
})
