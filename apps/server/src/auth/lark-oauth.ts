import type { AppContext } from '../app-context.ts'
import { forbidden } from '../http/errors.ts'
import { serverAddress } from './mail-messages.ts'
import type { ExternalIdentity } from './oauth-account.ts'
import { callProvider, textField } from './oauth-http.ts'

const PROVIDER = 'Lark'

/**
 * Lark (Feishu) authorization code flow: v2 token endpoint (JSON body, `code: 0` on success), then
 * the passport user info; the subject is the user's `open_id`.
 * https://open.feishu.cn/document/authentication-management/access-token/get-user-access-token
 */
export async function larkIdentity(context: AppContext, code: string): Promise<ExternalIdentity> {
  const { config, options } = context
  const exchange = await callProvider({
    provider: PROVIDER,
    url: `${config.LARK_OPEN_API_URL.replace(/\/+$/, '')}/open-apis/authen/v2/oauth/token`,
    json: {
      grant_type: 'authorization_code',
      client_id: options.get('LarkClientId'),
      client_secret: options.get('LarkClientSecret'),
      code,
      redirect_uri: `${serverAddress(context)}/oauth/lark`,
    },
  })
  const accessToken = textField(exchange.body, 'access_token')
  if (exchange.body.code !== 0 || !accessToken) {
    throw forbidden('Lark refused the sign-in: the code is invalid or has expired, please sign in again')
  }
  const profile = await callProvider({
    provider: PROVIDER,
    url: `${config.LARK_PASSPORT_URL.replace(/\/+$/, '')}/suite/passport/oauth/userinfo`,
    headers: { authorization: `Bearer ${accessToken}` },
  })
  const openId = textField(profile.body, 'open_id')
  if (profile.status !== 200 || !openId)
    throw forbidden('Lark did not return the account: please sign in again')
  return {
    column: 'lark_id',
    provider: PROVIDER,
    subject: openId,
    preferredUsername: textField(profile.body, 'en_name') || undefined,
    usernamePrefix: 'lark',
    displayName: textField(profile.body, 'name') || 'Lark User',
    email: textField(profile.body, 'email') || undefined,
  }
}
