import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_CLIENT, FakeOAuthProviders, type FakeProfile } from '../testing/fake-oauth-providers.ts'
import { ApiClient, registerAndLogin } from '../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'

async function setOptions(baseUrl: string, values: Record<string, string>): Promise<void> {
  const root = new ApiClient(baseUrl)
  await root.login('root', ROOT_PASSWORD)
  for (const [key, value] of Object.entries(values)) {
    const response = await root.put('/api/option/', { key, value })
    if (!response.body.success) throw new Error(`option ${key}: ${response.body.message}`)
  }
}

function providerEnv(fake: FakeOAuthProviders): Record<string, string> {
  return {
    GITHUB_OAUTH_URL: fake.url,
    GITHUB_API_URL: fake.url,
    LARK_OPEN_API_URL: fake.url,
    LARK_PASSPORT_URL: fake.url,
  }
}

describe('GitHub and Lark sign-in through their OAuth endpoints (local fakes)', () => {
  let fake: FakeOAuthProviders
  let server: TestApp
  const browser = () => new ApiClient(server.baseUrl)

  /** The whole round trip a browser makes: state, then the callback with the provider's code. */
  async function signInWith(client: ApiClient, provider: 'github' | 'lark', profile: FakeProfile) {
    const state = (await client.get('/api/oauth/state')).body.data as string
    const code = fake.issueCode(provider, profile)
    return client.get(`/api/oauth/${provider}?code=${code}&state=${state}`)
  }

  beforeAll(async () => {
    fake = await FakeOAuthProviders.start()
    server = await startTestApp('sqlite', providerEnv(fake))
    await setOptions(server.baseUrl, {
      ServerAddress: 'https://console.example.com',
      GitHubClientId: FAKE_CLIENT.id,
      GitHubClientSecret: FAKE_CLIENT.secret,
      LarkClientId: FAKE_CLIENT.id,
      LarkClientSecret: FAKE_CLIENT.secret,
    })
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it('refuses GitHub while GitHubOAuthEnabled is off', async () => {
    const response = await signInWith(browser(), 'github', { id: 'octocat' })
    expect(response.body).toMatchObject({
      success: false,
      message: 'The administrator has not enabled sign-in and registration with GitHub',
    })
    await setOptions(server.baseUrl, { GitHubOAuthEnabled: 'true' })
  })

  it('gives a 12-character state and registers a new user named after the GitHub login', async () => {
    const client = browser()
    const state = await client.get('/api/oauth/state')
    expect(state.body.data).toMatch(/^[0-9A-Za-z]{12}$/)
    const code = fake.issueCode('github', { id: 'octocat', name: 'The Octocat', email: 'Octo@Example.com' })
    const signedIn = await client.get(`/api/oauth/github?code=${code}&state=${state.body.data}`)
    expect(signedIn.body.success).toBe(true)
    expect(signedIn.body.data).toMatchObject({
      username: 'octocat',
      display_name: 'The Octocat',
      role: 1,
      status: 1,
    })
    const self = (await client.get('/api/user/self')).body.data
    expect(self).toMatchObject({ username: 'octocat', github_id: 'octocat', email: 'octo@example.com' })
    // The code went to GitHub's token endpoint with the client credentials, as JSON.
    const exchange = fake.requests.find((request) => request.path === '/login/oauth/access_token')
    expect(JSON.parse(exchange?.body ?? '{}')).toMatchObject({ client_id: FAKE_CLIENT.id, code })
    // Signing in again finds the same account.
    const again = await signInWith(browser(), 'github', { id: 'octocat' })
    expect(again.body.data.id).toBe(self.id)
  })

  it('picks a free username when the GitHub login is taken or too long', async () => {
    await registerAndLogin(server.baseUrl, 'hubber')
    const taken = await signInWith(browser(), 'github', { id: 'hubber' })
    expect(taken.body.success).toBe(true)
    expect(taken.body.data.username).not.toBe('hubber')
    expect(taken.body.data.username).toMatch(/^hubber_[0-9A-Za-z]{3}$/)
    const long = await signInWith(browser(), 'github', { id: 'a-very-long-github-login-name' })
    expect(long.body.data.username).toBe('a-very-long-')
  })

  it('refuses a wrong state, a replayed state and a state from another browser', async () => {
    const client = browser()
    const state = (await client.get('/api/oauth/state')).body.data as string
    const wrong = await client.get(
      `/api/oauth/github?code=${fake.issueCode('github', { id: 'x1' })}&state=AAAAAAAAAAAA`,
    )
    expect(wrong.body).toMatchObject({ success: false })
    expect(wrong.body.message).toMatch(/state is invalid/)
    const stranger = await browser().get(
      `/api/oauth/github?code=${fake.issueCode('github', { id: 'x1' })}&state=${state}`,
    )
    expect(stranger.body.success).toBe(false)
    // The stranger used it up: single use, even for its owner.
    const owner = await client.get(
      `/api/oauth/github?code=${fake.issueCode('github', { id: 'x1' })}&state=${state}`,
    )
    expect(owner.body.success).toBe(false)
    const fresh = (await client.get('/api/oauth/state')).body.data as string
    expect(
      (await client.get(`/api/oauth/github?code=${fake.issueCode('github', { id: 'x2' })}&state=${fresh}`))
        .body.success,
    ).toBe(true)
    const replay = await client.get(
      `/api/oauth/github?code=${fake.issueCode('github', { id: 'x2' })}&state=${fresh}`,
    )
    expect(replay.body.success).toBe(false)
  })

  it('refuses an expired or unknown code with a message and no session', async () => {
    const client = browser()
    const state = (await client.get('/api/oauth/state')).body.data as string
    const code = fake.issueCode('github', { id: 'late' }, { expired: true })
    const response = await client.get(`/api/oauth/github?code=${code}&state=${state}`)
    expect(response.body).toMatchObject({ success: false })
    expect(response.body.message).toMatch(/invalid or has expired/)
    expect(client.hasSession()).toBe(false)
  })

  it('does not register while registration is off, but still signs existing users in', async () => {
    await setOptions(server.baseUrl, { RegisterEnabled: 'false' })
    try {
      const refused = await signInWith(browser(), 'github', { id: 'newcomer' })
      expect(refused.body).toMatchObject({
        success: false,
        message: 'New user registration has been disabled by the administrator',
      })
      expect((await signInWith(browser(), 'github', { id: 'octocat' })).body.success).toBe(true)
    } finally {
      await setOptions(server.baseUrl, { RegisterEnabled: 'true' })
    }
  })

  it('refuses a disabled user', async () => {
    await signInWith(browser(), 'github', { id: 'banned' })
    await server.context.db
      .updateTable('users')
      .set({ status: 2 })
      .where('github_id', '=', 'banned')
      .execute()
    const response = await signInWith(browser(), 'github', { id: 'banned' })
    expect(response.body).toMatchObject({ success: false, message: 'This account has been disabled' })
  })

  it('binds GitHub to the signed-in user, and refuses an identity bound to someone else', async () => {
    const mia = await registerAndLogin(server.baseUrl, 'mia')
    const bound = await signInWith(mia, 'github', { id: 'mia-gh' })
    expect(bound.body).toMatchObject({ success: true, message: 'bind' })
    expect((await mia.get('/api/user/self')).body.data).toMatchObject({
      username: 'mia',
      github_id: 'mia-gh',
    })
    const nina = await registerAndLogin(server.baseUrl, 'nina')
    const conflict = await signInWith(nina, 'github', { id: 'mia-gh' })
    expect(conflict.body).toMatchObject({
      success: false,
      message: 'This GitHub account is already bound to another user',
    })
    expect((await nina.get('/api/user/self')).body.data.github_id).toBe('')
  })

  it('signs in, registers and binds with Lark, sending the redirect URI of the console', async () => {
    const signedIn = await signInWith(browser(), 'lark', { id: 'ou_lark1', name: 'Lark Person' })
    expect(signedIn.body.success).toBe(true)
    expect(signedIn.body.data.display_name).toBe('Lark Person')
    const exchange = fake.requests
      .filter((request) => request.path === '/open-apis/authen/v2/oauth/token')
      .at(-1)
    expect(JSON.parse(exchange?.body ?? '{}')).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: 'https://console.example.com/oauth/lark',
    })
    const again = await signInWith(browser(), 'lark', { id: 'ou_lark1' })
    expect(again.body.data.id).toBe(signedIn.body.data.id)
    const olga = await registerAndLogin(server.baseUrl, 'olga')
    expect((await signInWith(olga, 'lark', { id: 'ou_olga' })).body.message).toBe('bind')
    expect((await signInWith(olga, 'lark', { id: 'ou_lark1' })).body.success).toBe(false)
    const badState = await browser().get(
      `/api/oauth/lark?code=${fake.issueCode('lark', { id: 'ou_2' })}&state=nope`,
    )
    expect(badState.body.success).toBe(false)
    const client = browser()
    const state = (await client.get('/api/oauth/state')).body.data
    const expired = await client.get(
      `/api/oauth/lark?code=${fake.issueCode('lark', { id: 'ou_3' }, { expired: true })}&state=${state}`,
    )
    expect(expired.body.message).toMatch(/invalid or has expired/)
  })

  it('refuses Lark when no Lark app is configured', async () => {
    await setOptions(server.baseUrl, { LarkClientId: '' })
    const response = await signInWith(browser(), 'lark', { id: 'ou_x' })
    expect(response.body.message).toBe('The administrator has not enabled sign-in and registration with Lark')
    await setOptions(server.baseUrl, { LarkClientId: FAKE_CLIENT.id })
  })

  it('answers with a clear message when the provider cannot be reached', async () => {
    const client = browser()
    const state = (await client.get('/api/oauth/state')).body.data
    await setOptions(server.baseUrl, { GitHubClientSecret: 'wrong-secret' })
    const response = await client.get(
      `/api/oauth/github?code=${fake.issueCode('github', { id: 'y' })}&state=${state}`,
    )
    expect(response.body.success).toBe(false)
    expect(JSON.stringify(response.body)).not.toContain('wrong-secret')
    await setOptions(server.baseUrl, { GitHubClientSecret: FAKE_CLIENT.secret })
  })
})

describe('WeChat sign-in through a WeChat server (local fake)', () => {
  let fake: FakeOAuthProviders
  let server: TestApp
  const browser = () => new ApiClient(server.baseUrl)
  beforeAll(async () => {
    fake = await FakeOAuthProviders.start()
    server = await startTestApp('sqlite')
    await setOptions(server.baseUrl, {
      WeChatServerAddress: fake.url,
      WeChatServerToken: FAKE_CLIENT.wechatToken,
    })
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it('refuses while WeChatAuthEnabled is off', async () => {
    const response = await browser().get(`/api/oauth/wechat?code=${fake.issueCode('wechat', { id: 'wx1' })}`)
    expect(response.body.message).toBe(
      'The administrator has not enabled sign-in and registration with WeChat',
    )
    await setOptions(server.baseUrl, { WeChatAuthEnabled: 'true' })
  })

  it('signs in with the code of the official account, registering the first time', async () => {
    const client = browser()
    const response = await client.get(
      `/api/oauth/wechat?code=${fake.issueCode('wechat', { id: 'wx-openid-1' })}`,
    )
    expect(response.body.success).toBe(true)
    expect(response.body.data.username).toMatch(/^wechat_/)
    expect((await client.get('/api/user/self')).body.data.wechat_id).toBe('wx-openid-1')
    const again = await browser().get(
      `/api/oauth/wechat?code=${fake.issueCode('wechat', { id: 'wx-openid-1' })}`,
    )
    expect(again.body.data.id).toBe(response.body.data.id)
  })

  it('refuses a wrong or expired code', async () => {
    expect((await browser().get('/api/oauth/wechat?code=000000')).body.message).toMatch(
      /WeChat code is wrong/,
    )
    const expired = fake.issueCode('wechat', { id: 'wx2' }, { expired: true })
    expect((await browser().get(`/api/oauth/wechat?code=${expired}`)).body.success).toBe(false)
    expect((await browser().get('/api/oauth/wechat')).body.success).toBe(false)
  })

  it('binds WeChat to the signed-in user, refusing one bound to someone else', async () => {
    const pat = await registerAndLogin(server.baseUrl, 'pat')
    const bound = await pat.get(`/api/oauth/wechat/bind?code=${fake.issueCode('wechat', { id: 'wx-pat' })}`)
    expect(bound.body).toMatchObject({ success: true, message: 'bind' })
    expect((await pat.get('/api/user/self')).body.data.wechat_id).toBe('wx-pat')
    const quinn = await registerAndLogin(server.baseUrl, 'quinn')
    const conflict = await quinn.get(
      `/api/oauth/wechat/bind?code=${fake.issueCode('wechat', { id: 'wx-pat' })}`,
    )
    expect(conflict.body).toMatchObject({
      success: false,
      message: 'This WeChat account is already bound to another user',
    })
    expect((await browser().get(`/api/oauth/wechat/bind?code=abc`)).status).toBe(401)
  })
})

describe('sign-in rate limit', () => {
  it('answers 429 once a client exceeds CRITICAL_RATE_LIMIT sign-in calls', async () => {
    const server = await startTestApp('sqlite', { CRITICAL_RATE_LIMIT: '3' })
    try {
      const client = new ApiClient(server.baseUrl)
      const statuses: number[] = []
      for (let attempt = 0; attempt < 4; attempt++)
        statuses.push((await client.get('/api/oauth/state')).status)
      expect(statuses).toEqual([200, 200, 200, 429])
      expect((await client.get('/api/oauth/github?code=a&state=b')).status).toBe(429)
      expect((await client.get('/api/verification?email=a@example.com')).status).toBe(429)
    } finally {
      await server.close()
    }
  })
})
