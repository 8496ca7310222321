import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, registerAndLogin } from '../../testing/http-client.ts'
import { SmtpSink } from '../../testing/smtp-sink.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'

describe('the SMTP test mail and the free-key status fields', () => {
  let server: TestApp
  let smtp: SmtpSink
  let root: ApiClient
  const setOption = async (key: string, value: string) => {
    const response = await root.put('/api/option/', { key, value })
    expect(response.body, key).toMatchObject({ success: true })
  }
  beforeAll(async () => {
    smtp = await SmtpSink.start()
    server = await startTestApp('sqlite', {
      GITHUB_OAUTH_URL: 'http://127.0.0.1:9/github/',
      LARK_OPEN_API_URL: 'http://127.0.0.1:9/lark',
    })
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.close()
  })

  it('says SMTP is not configured before the server is set', async () => {
    const response = await root.post('/api/option/test_mail', { email: 'admin@example.com' })
    expect(response.body).toMatchObject({ success: false, message: /SMTP is not configured/ })
  })

  it('delivers a test mail through the saved SMTP options', async () => {
    await setOption('SMTPServer', '127.0.0.1')
    await setOption('SMTPPort', String(smtp.port))
    await setOption('SMTPAccount', smtp.account)
    await setOption('SMTPToken', smtp.password)
    await setOption('SMTPFrom', 'noreply@example.com')
    const before = smtp.mails.length
    const response = await root.post('/api/option/test_mail', { email: 'Admin@Example.com' })
    expect(response.body).toMatchObject({
      success: true,
      message: 'A test mail has been sent to admin@example.com',
    })
    const mail = await smtp.mailTo('admin@example.com', before)
    expect(mail.from).toBe('noreply@example.com')
    expect(mail.text).toContain('One API test mail')
  })

  it("answers the SMTP server's reason for a refused login, without the password", async () => {
    await setOption('SMTPToken', 'wrong-smtp-secret')
    const response = await root.post('/api/option/test_mail', { email: 'admin@example.com' })
    expect(response.body.success).toBe(false)
    expect(response.body.message).toMatch(/^The test mail could not be sent: .*Invalid/)
    expect(response.body.message).not.toContain('wrong-smtp-secret')
    await setOption('SMTPToken', smtp.password)
  })

  it('refuses a bad address and anyone but root', async () => {
    const bad = await root.post('/api/option/test_mail', { email: 'not-an-address' })
    expect(bad.body).toMatchObject({ success: false, message: 'Please enter a valid email address' })
    const user = await registerAndLogin(server.baseUrl, 'mailtester')
    const refused = await user.post('/api/option/test_mail', { email: 'admin@example.com' })
    expect(refused.body.success).toBe(false)
  })

  it('publishes the provider page bases and the free-key switch in /api/status', async () => {
    const before = await new ApiClient(server.baseUrl).get('/api/status')
    expect(before.body.data).toMatchObject({
      github_oauth_url: 'http://127.0.0.1:9/github',
      lark_oauth_url: 'http://127.0.0.1:9/lark',
      free_key_mode: false,
      free_key_paid_link: '',
    })
    await setOption('FreeKeyModeEnabled', 'true')
    await setOption('FreeKeyPaidServiceLink', 'https://paid.example.com/')
    const after = await new ApiClient(server.baseUrl).get('/api/status')
    expect(after.body.data).toMatchObject({
      free_key_mode: true,
      free_key_paid_link: 'https://paid.example.com',
    })
  })
})
