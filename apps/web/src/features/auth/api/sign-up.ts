import type { RegisterInput, SessionUser } from '@one-api/contracts'
import { useMutation } from '@tanstack/react-query'
import { apiPost } from '@/lib/api-client.ts'
import { turnstileQuery } from './sign-in.ts'

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
