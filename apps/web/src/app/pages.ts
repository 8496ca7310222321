import { lazyPage } from '../components/lazy-page.tsx'

/** Every page is its own chunk, loaded on first visit, so a page costs nothing until it is used. */
export const HomePage = lazyPage(() => import('../features/home/pages/home-page.tsx').then((m) => m.HomePage))
export const LoginPage = lazyPage(() =>
  import('../features/auth/pages/login-page.tsx').then((m) => m.LoginPage),
)
export const RegisterPage = lazyPage(() =>
  import('../features/auth/pages/register-page.tsx').then((m) => m.RegisterPage),
)
export const GitHubAuthorizePage = lazyPage(() =>
  import('../features/auth/pages/github-authorize-page.tsx').then((m) => m.GitHubAuthorizePage),
)
export const GitHubCallbackPage = lazyPage(() =>
  import('../features/auth/pages/github-callback-page.tsx').then((m) => m.GitHubCallbackPage),
)
export const LarkCallbackPage = lazyPage(() =>
  import('../features/auth/pages/lark-callback-page.tsx').then((m) => m.LarkCallbackPage),
)
export const ChatPage = lazyPage(() => import('../features/chat/pages/chat-page.tsx').then((m) => m.ChatPage))
export const ChannelsPage = lazyPage(() =>
  import('../features/channels/pages/channels-page.tsx').then((m) => m.ChannelsPage),
)
export const ChannelFormPage = lazyPage(() =>
  import('../features/channels/pages/channel-form-page.tsx').then((m) => m.ChannelFormPage),
)
export const TokensPage = lazyPage(() =>
  import('../features/tokens/pages/tokens-page.tsx').then((m) => m.TokensPage),
)
export const TokenFormPage = lazyPage(() =>
  import('../features/tokens/pages/token-form-page.tsx').then((m) => m.TokenFormPage),
)
export const RedemptionsPage = lazyPage(() =>
  import('../features/redemptions/pages/redemptions-page.tsx').then((m) => m.RedemptionsPage),
)
export const RedemptionFormPage = lazyPage(() =>
  import('../features/redemptions/pages/redemption-form-page.tsx').then((m) => m.RedemptionFormPage),
)
export const UsersPage = lazyPage(() =>
  import('../features/users/pages/users-page.tsx').then((m) => m.UsersPage),
)
export const UserFormPage = lazyPage(() =>
  import('../features/users/pages/user-form-page.tsx').then((m) => m.UserFormPage),
)
export const LogsPage = lazyPage(() => import('../features/logs/pages/logs-page.tsx').then((m) => m.LogsPage))
export const SettingsPage = lazyPage(() =>
  import('../features/settings/pages/settings-page.tsx').then((m) => m.SettingsPage),
)
