import type { SessionUser } from '@one-api/contracts'
import { useState } from 'react'
import { ApiError, apiPost } from '@/lib/api-client.ts'
import { storeUser } from '@/lib/user-store.ts'

export interface SignInInput {
  username: string
  password: string
  turnstileToken?: string
}

export function turnstileQuery(token: string | undefined): string {
  return token ? `?turnstile=${encodeURIComponent(token)}` : ''
}

/**
 * Drops what TanStack Query cached for the previous user (a session that expired left it there).
 * Imported on demand: the sign-in page's first load holds no Query code, and the pages after
 * sign-in need the chunk anyway.
 */
export async function forgetCachedQueries(): Promise<void> {
  const { forgetUserQueries } = await import('@/lib/query-client.ts')
  forgetUserQueries()
}

/**
 * POST /api/user/login; the returned user is kept in local storage under `user`. `signIn` resolves
 * to false when the server refused (the API client has shown why). Plain state rather than
 * `useMutation`: the sign-in page is rendered without TanStack Query.
 */
export function useSignIn() {
  const [isPending, setIsPending] = useState(false)
  const signIn = async ({ username, password, turnstileToken }: SignInInput): Promise<boolean> => {
    setIsPending(true)
    try {
      const user = await apiPost<SessionUser>(
        `/api/user/login${turnstileQuery(turnstileToken)}`,
        { username, password },
        { redirectOnUnauthorized: false },
      )
      await forgetCachedQueries()
      storeUser(user)
      return true
    } catch (error) {
      if (error instanceof ApiError) return false
      throw error
    } finally {
      setIsPending(false)
    }
  }
  return { signIn, isPending }
}
