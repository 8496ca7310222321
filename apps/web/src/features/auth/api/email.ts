import { apiGet, apiRequest } from '@/lib/api-client.ts'

function withTurnstile(query: URLSearchParams, turnstileToken: string | undefined): string {
  if (turnstileToken) query.set('turnstile', turnstileToken)
  return query.toString()
}

/** GET /api/verification: mails a code to the address (registration, binding). Answers the server's message. */
export async function sendVerificationCode(email: string, turnstileToken?: string): Promise<string> {
  const query = withTurnstile(new URLSearchParams({ email }), turnstileToken)
  return (await apiRequest<void>('GET', `/api/verification?${query}`)).message
}

/** GET /api/oauth/email/bind: binds the address the code was mailed to. */
export function bindEmail(email: string, code: string): Promise<void> {
  return apiGet<void>(`/api/oauth/email/bind?${new URLSearchParams({ email, code })}`)
}

/** GET /api/reset_password: mails a reset link; the same answer whether or not an account has the address. */
export async function requestPasswordReset(email: string, turnstileToken?: string): Promise<string> {
  const query = withTurnstile(new URLSearchParams({ email }), turnstileToken)
  return (await apiRequest<void>('GET', `/api/reset_password?${query}`)).message
}

/** POST /api/user/reset: the link's email and token set a new random password, returned once. */
export async function resetPassword(email: string, token: string): Promise<string> {
  const reply = await apiRequest<string>('POST', '/api/user/reset', { body: { email, token } })
  return reply.data ?? ''
}
