import { type ComponentType, lazy } from 'react'
import { Route, Routes } from 'react-router'
import { NotFoundPage } from '@/components/not-found-page.tsx'
import { RequireAdmin, RequireSignIn } from '@/components/route-guards.tsx'
import { type CatalogueBundle, loadCatalogues } from '@/i18n/i18n.ts'
import { loadChunk } from '@/lib/chunk-load.ts'
import { AppLayout } from './layout/app-layout.tsx'

/**
 * A page that is its own chunk, fetched on first visit with the translation bundles it uses and
 * TanStack Query's provider (`QueryScope`) around it: `page(() => import(file), 'Name', ['channels'])`
 * (the core bundle is always there). While they download the layout shows the loading placeholder;
 * a failed download reaches the layout's error boundary as a ChunkLoadError.
 */
function page<Module, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name,
  bundles: readonly CatalogueBundle[] = [],
): ComponentType {
  return lazy(async () => {
    const [module, { QueryScope }] = await Promise.all([
      loadChunk(load),
      loadChunk(() => import('./query-scope.tsx')),
      loadChunk(() => loadCatalogues(bundles)),
    ])
    const Page = module[name] as ComponentType
    return {
      default: () => (
        <QueryScope>
          <Page />
        </QueryScope>
      ),
    }
  })
}

/**
 * The sign-in page, the first screen: no TanStack Query (its form posts with plain state), so the
 * Query chunk stays out of the first load.
 */
const LoginPage = lazy(async () => ({
  default: (await loadChunk(() => import('@/features/auth/pages/login-page.tsx'))).LoginPage,
}))

const HomePage = page(() => import('@/features/home/pages/home-page.tsx'), 'HomePage', ['home'])
const RegisterPage = page(() => import('@/features/auth/pages/register-page.tsx'), 'RegisterPage', ['auth'])
const GitHubAuthorizePage = page(
  () => import('@/features/auth/pages/github-authorize-page.tsx'),
  'GitHubAuthorizePage',
  ['auth'],
)
const GitHubCallbackPage = page(
  () => import('@/features/auth/pages/github-callback-page.tsx'),
  'GitHubCallbackPage',
  ['auth'],
)
const LarkCallbackPage = page(
  () => import('@/features/auth/pages/lark-callback-page.tsx'),
  'LarkCallbackPage',
  ['auth'],
)
const OidcCallbackPage = page(
  () => import('@/features/auth/pages/oidc-callback-page.tsx'),
  'OidcCallbackPage',
  ['auth'],
)
const ForgotPasswordPage = page(
  () => import('@/features/auth/pages/forgot-password-page.tsx'),
  'ForgotPasswordPage',
  ['auth'],
)
const ResetLandingPage = page(
  () => import('@/features/auth/pages/reset-landing-page.tsx'),
  'ResetLandingPage',
  ['auth'],
)
const ChatPage = page(() => import('@/features/chat/pages/chat-page.tsx'), 'ChatPage', ['chat'])
const TokensPage = page(() => import('@/features/tokens/pages/tokens-page.tsx'), 'TokensPage', ['tokens'])
const TokenFormPage = page(() => import('@/features/tokens/pages/token-form-page.tsx'), 'TokenFormPage', [
  'tokens',
])
const LogsPage = page(() => import('@/features/logs/pages/logs-page.tsx'), 'LogsPage', ['logs'])
const TopUpPage = page(() => import('@/features/redemptions/pages/top-up-page.tsx'), 'TopUpPage', [
  'redemptions',
])
// The settings tabs with the sign-in and redemption features' cards put in by the app layer.
const SettingsPage = page(() => import('./routes/settings-route.tsx'), 'SettingsRoute', [
  'settings',
  'auth',
  'redemptions',
])
const ProfileEditPage = page(
  () => import('@/features/settings/pages/profile-edit-page.tsx'),
  'ProfileEditPage',
  ['settings', 'auth', 'redemptions'],
)
const ModelsPage = page(() => import('@/features/models/pages/models-page.tsx'), 'ModelsPage', ['models'])
const ChannelsPage = page(() => import('@/features/channels/pages/channels-page.tsx'), 'ChannelsPage', [
  'channels',
])
const ChannelFormPage = page(
  () => import('@/features/channels/pages/channel-form-page.tsx'),
  'ChannelFormPage',
  ['channels'],
)
const RedemptionsPage = page(
  () => import('@/features/redemptions/pages/redemptions-page.tsx'),
  'RedemptionsPage',
  ['redemptions'],
)
const RedemptionFormPage = page(
  () => import('@/features/redemptions/pages/redemption-form-page.tsx'),
  'RedemptionFormPage',
  ['redemptions'],
)
const UsersPage = page(() => import('@/features/users/pages/users-page.tsx'), 'UsersPage', ['users'])
const UserFormPage = page(() => import('@/features/users/pages/user-form-page.tsx'), 'UserFormPage', [
  'users',
])

/**
 * The console's routes, in React Router's declarative mode (`<Routes>`): the data router
 * (`createBrowserRouter`, loaders, `lazy` routes) would add about 18 kB to the sign-in page's
 * first load, and the console uses none of its data features. Pages are `React.lazy` components.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<HomePage />} />
        <Route path="login" element={<LoginPage />} />
        <Route path="register" element={<RegisterPage />} />
        <Route path="github" element={<GitHubAuthorizePage />} />
        <Route path="oauth/github" element={<GitHubCallbackPage />} />
        <Route path="oauth/lark" element={<LarkCallbackPage />} />
        <Route path="oauth/oidc" element={<OidcCallbackPage />} />
        <Route path="reset" element={<ForgotPasswordPage />} />
        {/* The link of the password reset mail. */}
        <Route path="user/reset" element={<ResetLandingPage />} />
        <Route path="chat" element={<ChatPage />} />
        <Route element={<RequireSignIn />}>
          <Route path="token" element={<TokensPage />} />
          <Route path="token/add" element={<TokenFormPage />} />
          <Route path="token/edit/:id" element={<TokenFormPage />} />
          <Route path="log" element={<LogsPage />} />
          <Route path="topup" element={<TopUpPage />} />
          <Route path="setting" element={<SettingsPage />} />
          {/* Editing one's own profile: no group or quota fields. */}
          <Route path="user/edit" element={<ProfileEditPage />} />
          <Route path="models" element={<ModelsPage />} />
          <Route element={<RequireAdmin />}>
            <Route path="channel" element={<ChannelsPage />} />
            <Route path="channel/add" element={<ChannelFormPage />} />
            <Route path="channel/edit/:id" element={<ChannelFormPage />} />
            <Route path="redemption" element={<RedemptionsPage />} />
            <Route path="redemption/add" element={<RedemptionFormPage />} />
            <Route path="redemption/edit/:id" element={<RedemptionFormPage />} />
            <Route path="user" element={<UsersPage />} />
            <Route path="user/add" element={<UserFormPage />} />
            <Route path="user/edit/:id" element={<UserFormPage />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  )
}
