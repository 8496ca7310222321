import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient, registerAndLogin } from '../testing/http-client.ts'
import { OIDC_CLIENT, OidcIssuer } from '../testing/oidc-issuer.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'

const CONSOLE = 'https://console.example.com'

async function setOptions(baseUrl: string, values: Record<string, string>): Promise<void> {
  const root = new ApiClient(baseUrl)
  await root.login('root', ROOT_PASSWORD)
  for (const [key, value] of Object.entries(values)) {
    const response = await root.put('/api/option/', { key, value })
    if (!response.body.success) throw new Error(`option ${key}: ${response.body.message}`)
  }
}

describe('OIDC sign-in against a real OpenID provider (authorization code + PKCE)', () => {
  let issuer: OidcIssuer
  let server: TestApp

  /** The console's part: a state with its PKCE challenge, the provider's pages, the callback. */
  async function signInWithOidc(client: ApiClient, login: string, tamper?: (callback: URL) => void) {
    const started = await client.get('/api/oauth/state?pkce=S256')
    expect(started.body.success).toBe(true)
    const { state, code_challenge, authorization_endpoint } = started.body.data
    const authorize = new URL(authorization_endpoint)
    authorize.search = new URLSearchParams({
      client_id: OIDC_CLIENT.id,
      response_type: 'code',
      scope: 'openid profile email',
      redirect_uri: `${CONSOLE}/oauth/oidc`,
      state,
      code_challenge,
      code_challenge_method: 'S256',
    }).toString()
    const callback = await issuer.authorize(authorize.href, login)
    expect(callback.origin + callback.pathname).toBe(`${CONSOLE}/oauth/oidc`)
    tamper?.(callback)
    const query = new URLSearchParams({
      code: callback.searchParams.get('code') ?? '',
      state: callback.searchParams.get('state') ?? '',
    })
    return { response: await client.get(`/api/oauth/oidc?${query}`), query }
  }

  beforeAll(async () => {
    issuer = await OidcIssuer.start(`${CONSOLE}/oauth/oidc`)
    server = await startTestApp('sqlite')
    await setOptions(server.baseUrl, {
      ServerAddress: CONSOLE,
      OidcClientId: OIDC_CLIENT.id,
      OidcClientSecret: OIDC_CLIENT.secret,
      OidcWellKnown: issuer.wellKnown,
    })
  })
  afterAll(async () => {
    await server?.close()
    await issuer?.close()
  })

  it('is refused while OidcEnabled is off, and the status shows the switch', async () => {
    const status = (await new ApiClient(server.baseUrl).get('/api/status')).body.data
    expect(status).toMatchObject({
      oidc: false,
      oidc_client_id: OIDC_CLIENT.id,
      oidc_well_known: issuer.wellKnown,
    })
    const refused = await new ApiClient(server.baseUrl).get('/api/oauth/oidc?code=x&state=y')
    expect(refused.body.message).toBe('The administrator has not enabled sign-in and registration with OIDC')
    await setOptions(server.baseUrl, { OidcEnabled: 'true' })
    expect((await new ApiClient(server.baseUrl).get('/api/status')).body.data.oidc).toBe(true)
  })

  it('registers and signs in a person, using the endpoints found by discovery', async () => {
    issuer.addPerson({
      sub: 'person-1',
      preferred_username: 'rosa',
      name: 'Rosa Parks',
      email: 'rosa@example.com',
    })
    const client = new ApiClient(server.baseUrl)
    const { response } = await signInWithOidc(client, 'person-1')
    expect(response.body.success).toBe(true)
    expect(response.body.data).toMatchObject({ username: 'rosa', display_name: 'Rosa Parks' })
    expect((await client.get('/api/user/self')).body.data).toMatchObject({
      oidc_id: 'person-1',
      email: 'rosa@example.com',
    })
    const again = await signInWithOidc(new ApiClient(server.baseUrl), 'person-1')
    expect(again.response.body.data.id).toBe(response.body.data.id)
  })

  it('refuses a replayed callback (the code and the state are single use)', async () => {
    issuer.addPerson({ sub: 'person-2' })
    const client = new ApiClient(server.baseUrl)
    const { response, query } = await signInWithOidc(client, 'person-2')
    expect(response.body.success).toBe(true)
    expect(response.body.data.username).toMatch(/^oidc_/)
    const replay = await client.get(`/api/oauth/oidc?${query}`)
    expect(replay.body.success).toBe(false)
  })

  it('refuses a code redeemed with another state (whose PKCE verifier does not match)', async () => {
    issuer.addPerson({ sub: 'person-3' })
    const client = new ApiClient(server.baseUrl)
    const other = (await client.get('/api/oauth/state?pkce=S256')).body.data.state
    const { response } = await signInWithOidc(client, 'person-3', (callback) => {
      callback.searchParams.set('state', other)
    })
    expect(response.body.success).toBe(false)
    expect(response.body.message).toMatch(/refused the sign-in/)
  })

  it('binds OIDC to the signed-in user and refuses an identity bound to someone else', async () => {
    issuer.addPerson({ sub: 'person-4' })
    const sam = await registerAndLogin(server.baseUrl, 'sam')
    expect((await signInWithOidc(sam, 'person-4')).response.body).toMatchObject({
      success: true,
      message: 'bind',
    })
    expect((await sam.get('/api/user/self')).body.data.oidc_id).toBe('person-4')
    const tess = await registerAndLogin(server.baseUrl, 'tess')
    const conflict = (await signInWithOidc(tess, 'person-4')).response
    expect(conflict.body).toMatchObject({
      success: false,
      message: 'This OIDC account is already bound to another user',
    })
  })

  it('does not register a new person while registration is off', async () => {
    issuer.addPerson({ sub: 'person-5' })
    await setOptions(server.baseUrl, { RegisterEnabled: 'false' })
    try {
      const { response } = await signInWithOidc(new ApiClient(server.baseUrl), 'person-5')
      expect(response.body.message).toBe('New user registration has been disabled by the administrator')
    } finally {
      await setOptions(server.baseUrl, { RegisterEnabled: 'true' })
    }
  })
})
