import type { AppContext } from '../app-context.ts'
import { AppError, forbidden } from '../http/errors.ts'
import type { ExternalIdentity } from './oauth-account.ts'
import { callProvider, textField } from './oauth-http.ts'

const PROVIDER = 'the WeChat server'

/**
 * WeChat sign-in through a WeChat server (the companion service that runs the official account):
 * the user sends the account a message, gets a one-time code and types it here. The server turns
 * the code into the user's WeChat id: `GET <WeChatServerAddress>/api/wechat/user?code=` with
 * `Authorization: <WeChatServerToken>`, answering `{success, message, data: id}`.
 */
export async function wechatIdentity(context: AppContext, code: string): Promise<ExternalIdentity> {
  const { options } = context
  const address = options.get('WeChatServerAddress').replace(/\/+$/, '')
  if (!address) throw new AppError('service_unavailable', 'The WeChat server address is not configured')
  const answer = await callProvider({
    provider: PROVIDER,
    url: `${address}/api/wechat/user?${new URLSearchParams({ code })}`,
    headers: { authorization: options.get('WeChatServerToken') },
  })
  const wechatId = textField(answer.body, 'data')
  if (answer.body.success !== true || !wechatId) {
    throw forbidden('The WeChat code is wrong or has expired: get a new one from the official account')
  }
  return {
    column: 'wechat_id',
    provider: 'WeChat',
    subject: wechatId,
    usernamePrefix: 'wechat',
    displayName: 'WeChat User',
  }
}
