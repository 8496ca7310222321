import pino from 'pino'
import type { AppContext } from '../app-context.ts'
import { emailRoutes } from '../auth/email-routes.ts'
import { oauthRoutes } from '../auth/oauth-routes.ts'
import { sessionRoutes } from '../auth/session-routes.ts'
import type { RouteDefinition } from '../http/route.ts'
import { accountRoutes } from './account/account-routes.ts'
import { selfRoutes } from './account/self-routes.ts'
import { channelRoutes } from './channels/channel-routes.ts'
import { channelTestRoutes } from './channels/channel-test-routes.ts'
import { ChannelTestRunner } from './channels/channel-test-runner.ts'
import { dashboardRoutes } from './dashboard/dashboard-routes.ts'
import { logRoutes } from './logs/log-routes.ts'
import { optionRoutes } from './options/option-routes.ts'
import { testMailRoutes } from './options/test-mail-route.ts'
import { redemptionRoutes } from './redemptions/redemption-routes.ts'
import { statusRoutes } from './status/status-routes.ts'
import { tokenRoutes } from './tokens/token-routes.ts'
import { topupRoutes } from './topup/topup-routes.ts'
import { userRoutes } from './users/user-routes.ts'

const silentLogger = pino({ level: 'silent' })

/**
 * Every management route with its minimum role. The server registers exactly this list and the
 * permission test (route-permissions.test.ts) calls every entry as anonymous, user, admin and root.
 */
export function managementRoutes(context: AppContext): RouteDefinition[] {
  return [
    ...statusRoutes(context),
    ...accountRoutes(context),
    ...emailRoutes(context),
    ...oauthRoutes(context),
    ...selfRoutes(context),
    ...optionRoutes(context),
    ...testMailRoutes(context),
    ...userRoutes(context),
    ...sessionRoutes(context),
    ...tokenRoutes(context),
    ...channelRoutes(context),
    ...channelTestRoutes(context, context.channelTests ?? new ChannelTestRunner(context, silentLogger)),
    ...redemptionRoutes(context),
    ...topupRoutes(context),
    ...logRoutes(context),
    ...dashboardRoutes(context),
  ]
}
