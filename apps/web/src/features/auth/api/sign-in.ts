import type { RegisterInput, SessionUser } from '@one-api/contracts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPost } from '@/lib/api-client.ts'
import { forgetUserQueries } from '@/lib/status.ts'
import { storeUser } from '@/lib/user-store.ts'

export interface SignInInput {
  username: string
  password: string
  turnstileToken?: string
}

function turnstileQuery(token: string | undefined): string {
  return token ? `?turnstile=${encodeURIComponent(token)}` : ''
}

/** POST /api/user/login; the returned user is kept in local storage under `user`. */
export function useSignIn() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ username, password, turnstileToken }: SignInInput) => {
      const user = await apiPost<SessionUser>(
        `/api/user/login${turnstileQuery(turnstileToken)}`,
        { username, password },
        { redirectOnUnauthorized: false },
      )
      // A session that expired (401) left the previous user's data cached.
      forgetUserQueries(queryClient)
      storeUser(user)
      return user
    },
  })
}

export interface SignUpInput {
  payload: RegisterInput
  turnstileToken?: string
}

/** POST /api/user/register: username, password, and the email code and invite code when given. */
export function useSignUp() {
  return useMutation({
    mutationFn: ({ payload, turnstileToken }: SignUpInput) =>
      apiPost<SessionUser>(`/api/user/register${turnstileQuery(turnstileToken)}`, payload),
  })
}
