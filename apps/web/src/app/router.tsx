import { createBrowserRouter, type RouteObject } from 'react-router'
import { NotFoundPage } from '../components/not-found-page.tsx'
import { RouteErrorPage } from '../components/route-error-page.tsx'
import { RequireAdmin, RequireSignIn } from '../components/route-guards.tsx'
import { registerNavigate } from '../lib/navigation.ts'
import { AppLayout } from './layout/app-layout.tsx'
import * as Pages from './pages.ts'

/**
 * The console's routes (one-api's paths). Guards sit outside the lazy pages so a refused visit loads
 * no page code.
 */
const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        // A second boundary inside the layout keeps the header and menu on a page's error.
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <Pages.HomePage /> },
          { path: 'login', element: <Pages.LoginPage /> },
          { path: 'register', element: <Pages.RegisterPage /> },
          { path: 'github', element: <Pages.GitHubAuthorizePage /> },
          { path: 'oauth/github', element: <Pages.GitHubCallbackPage /> },
          { path: 'oauth/lark', element: <Pages.LarkCallbackPage /> },
          { path: 'chat', element: <Pages.ChatPage /> },
          {
            element: <RequireSignIn />,
            children: [
              { path: 'token', element: <Pages.TokensPage /> },
              { path: 'token/add', element: <Pages.TokenFormPage /> },
              { path: 'token/edit/:id', element: <Pages.TokenFormPage /> },
              { path: 'log', element: <Pages.LogsPage /> },
              { path: 'setting', element: <Pages.SettingsPage /> },
              // Editing one's own profile: no group or quota fields.
              { path: 'user/edit', element: <Pages.UserFormPage /> },
              {
                element: <RequireAdmin />,
                children: [
                  { path: 'channel', element: <Pages.ChannelsPage /> },
                  { path: 'channel/add', element: <Pages.ChannelFormPage /> },
                  { path: 'channel/edit/:id', element: <Pages.ChannelFormPage /> },
                  { path: 'redemption', element: <Pages.RedemptionsPage /> },
                  { path: 'redemption/add', element: <Pages.RedemptionFormPage /> },
                  { path: 'redemption/edit/:id', element: <Pages.RedemptionFormPage /> },
                  { path: 'user', element: <Pages.UsersPage /> },
                  { path: 'user/add', element: <Pages.UserFormPage /> },
                  { path: 'user/edit/:id', element: <Pages.UserFormPage /> },
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
