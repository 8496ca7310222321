import type { ComponentType } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router'
import { Loading } from '@/components/loading.tsx'
import { NotFoundPage } from '@/components/not-found-page.tsx'
import { RouteErrorPage } from '@/components/route-error-page.tsx'
import { RequireAdmin, RequireSignIn } from '@/components/route-guards.tsx'
import { type CatalogueBundle, loadCatalogues } from '@/i18n/i18n.ts'
import { loadChunk } from '@/lib/chunk-load.ts'
import { registerNavigate } from '@/lib/navigation.ts'
import { AppLayout } from './layout/app-layout.tsx'

/**
 * A route whose page is its own chunk, fetched on first visit with the translation bundles it
 * uses: `page(() => import(file), 'Name', ['channels'])` (the core bundle is always there). While
 * they download the layout shows the loading placeholder; a failed download reaches the route's
 * error page as a ChunkLoadError.
 */
function page<Module, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name,
  bundles: readonly CatalogueBundle[] = [],
): RouteObject['lazy'] {
  return async () => {
    const [module] = await Promise.all([loadChunk(load), loadChunk(() => loadCatalogues(bundles))])
    return { Component: module[name] as ComponentType }
  }
}

const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    HydrateFallback: Loading,
    children: [
      {
        // A second boundary inside the layout keeps the header and menu on a page's error.
        errorElement: <RouteErrorPage />,
        children: [
          {
            index: true,
            lazy: page(() => import('@/features/home/pages/home-page.tsx'), 'HomePage', ['home']),
          },
          { path: 'login', lazy: page(() => import('@/features/auth/pages/login-page.tsx'), 'LoginPage') },
          {
            path: 'register',
            lazy: page(() => import('@/features/auth/pages/register-page.tsx'), 'RegisterPage', ['auth']),
          },
          {
            path: 'github',
            lazy: page(
              () => import('@/features/auth/pages/github-authorize-page.tsx'),
              'GitHubAuthorizePage',
              ['auth'],
            ),
          },
          {
            path: 'oauth/github',
            lazy: page(() => import('@/features/auth/pages/github-callback-page.tsx'), 'GitHubCallbackPage', [
              'auth',
            ]),
          },
          {
            path: 'oauth/lark',
            lazy: page(() => import('@/features/auth/pages/lark-callback-page.tsx'), 'LarkCallbackPage', [
              'auth',
            ]),
          },
          {
            path: 'oauth/oidc',
            lazy: page(() => import('@/features/auth/pages/oidc-callback-page.tsx'), 'OidcCallbackPage', [
              'auth',
            ]),
          },
          {
            path: 'reset',
            lazy: page(() => import('@/features/auth/pages/forgot-password-page.tsx'), 'ForgotPasswordPage', [
              'auth',
            ]),
          },
          {
            // The link of the password reset mail.
            path: 'user/reset',
            lazy: page(() => import('@/features/auth/pages/reset-landing-page.tsx'), 'ResetLandingPage', [
              'auth',
            ]),
          },
          {
            path: 'chat',
            lazy: page(() => import('@/features/chat/pages/chat-page.tsx'), 'ChatPage', ['chat']),
          },
          {
            element: <RequireSignIn />,
            children: [
              {
                path: 'token',
                lazy: page(() => import('@/features/tokens/pages/tokens-page.tsx'), 'TokensPage', ['tokens']),
              },
              {
                path: 'token/add',
                lazy: page(() => import('@/features/tokens/pages/token-form-page.tsx'), 'TokenFormPage', [
                  'tokens',
                ]),
              },
              {
                path: 'token/edit/:id',
                lazy: page(() => import('@/features/tokens/pages/token-form-page.tsx'), 'TokenFormPage', [
                  'tokens',
                ]),
              },
              {
                path: 'log',
                lazy: page(() => import('@/features/logs/pages/logs-page.tsx'), 'LogsPage', ['logs']),
              },
              {
                path: 'topup',
                lazy: page(() => import('@/features/redemptions/pages/top-up-page.tsx'), 'TopUpPage', [
                  'redemptions',
                ]),
              },
              {
                path: 'setting',
                lazy: page(() => import('@/features/settings/pages/settings-page.tsx'), 'SettingsPage', [
                  'settings',
                  'auth',
                  'redemptions',
                ]),
              },
              // Editing one's own profile: no group or quota fields.
              {
                path: 'user/edit',
                lazy: page(
                  () => import('@/features/settings/pages/profile-edit-page.tsx'),
                  'ProfileEditPage',
                  ['settings', 'auth', 'redemptions'],
                ),
              },
              {
                path: 'models',
                lazy: page(() => import('@/features/models/pages/models-page.tsx'), 'ModelsPage', ['models']),
              },
              {
                element: <RequireAdmin />,
                children: [
                  {
                    path: 'channel',
                    lazy: page(() => import('@/features/channels/pages/channels-page.tsx'), 'ChannelsPage', [
                      'channels',
                    ]),
                  },
                  {
                    path: 'channel/add',
                    lazy: page(
                      () => import('@/features/channels/pages/channel-form-page.tsx'),
                      'ChannelFormPage',
                      ['channels'],
                    ),
                  },
                  {
                    path: 'channel/edit/:id',
                    lazy: page(
                      () => import('@/features/channels/pages/channel-form-page.tsx'),
                      'ChannelFormPage',
                      ['channels'],
                    ),
                  },
                  {
                    path: 'redemption',
                    lazy: page(
                      () => import('@/features/redemptions/pages/redemptions-page.tsx'),
                      'RedemptionsPage',
                      ['redemptions'],
                    ),
                  },
                  {
                    path: 'redemption/add',
                    lazy: page(
                      () => import('@/features/redemptions/pages/redemption-form-page.tsx'),
                      'RedemptionFormPage',
                      ['redemptions'],
                    ),
                  },
                  {
                    path: 'redemption/edit/:id',
                    lazy: page(
                      () => import('@/features/redemptions/pages/redemption-form-page.tsx'),
                      'RedemptionFormPage',
                      ['redemptions'],
                    ),
                  },
                  {
                    path: 'user',
                    lazy: page(() => import('@/features/users/pages/users-page.tsx'), 'UsersPage', ['users']),
                  },
                  {
                    path: 'user/add',
                    lazy: page(() => import('@/features/users/pages/user-form-page.tsx'), 'UserFormPage', [
                      'users',
                    ]),
                  },
                  {
                    path: 'user/edit/:id',
                    lazy: page(() => import('@/features/users/pages/user-form-page.tsx'), 'UserFormPage', [
                      'users',
                    ]),
                  },
                ],
              },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]

export const router = createBrowserRouter(routes)

registerNavigate((to) => void router.navigate(to))
