import type { SessionUser } from '@one-api/contracts'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { apiRequest } from '@/lib/api-client.ts'
import { notifyError, notifySuccess } from '@/lib/notify.ts'
import { forgetUserQueries } from '@/lib/query-client.ts'
import { storeUser } from '@/lib/user-store.ts'

/** The wait before retry N is 2000 ms times N. */
export const RETRY_STEP_MS = 2000

export interface OAuthCallbackPolicy {
  /** GET endpoint that takes ?code&state, e.g. /api/oauth/github. */
  endpoint: string
  /** How many times a failed exchange is retried; Infinity for GitHub, as one-api's console does. */
  maxRetries: number
  /** Where to go once the retries are spent; undefined keeps the page with its message. */
  giveUpPath?: string
  /** The status line after the first failure. */
  firstFailurePrompt: string
  /** false keeps the page after a sign-in (free-key mode shows the key there); true goes home. */
  leaveAfterSignIn: boolean
}

export type CallbackOutcome = 'pending' | 'signed-in' | 'bound' | 'failed'

const wait = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/**
 * Exchanges the provider's code for a session. 'bind' means the account was linked to the signed-in
 * user (then to /setting); anything else signs the returned user in. Returns the status line to show
 * and where the exchange stands.
 */
export function useOAuthCallback(policy: OAuthCallbackPolicy): { prompt: string; outcome: CallbackOutcome } {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [searchParams] = useSearchParams()
  const [prompt, setPrompt] = useState(() => t('oauth.processing'))
  const [outcome, setOutcome] = useState<CallbackOutcome>('pending')
  const started = useRef(false)
  const mounted = useRef(true)

  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: the code may be exchanged only once per visit
  useEffect(() => {
    if (started.current) return
    started.current = true
    const query = new URLSearchParams({
      code: searchParams.get('code') ?? '',
      state: searchParams.get('state') ?? '',
    })
    const succeed = (reply: { message: string; data?: SessionUser }) => {
      if (reply.message === 'bind') {
        setPrompt(t('oauth.bound'))
        setOutcome('bound')
        notifySuccess(t('oauth.bound'))
        navigate('/setting')
        return
      }
      if (reply.data) {
        forgetUserQueries()
        storeUser(reply.data)
      }
      setPrompt(t('oauth.authorized'))
      setOutcome('signed-in')
      notifySuccess(t('oauth.authorized'))
      if (policy.leaveAfterSignIn) navigate('/')
    }
    const attempt = async (retry: number): Promise<void> => {
      try {
        const reply = await apiRequest<SessionUser>('GET', `${policy.endpoint}?${query}`, { notify: false })
        if (mounted.current) succeed(reply)
      } catch (error) {
        if (!mounted.current) return
        notifyError(error instanceof Error ? error.message : String(error))
        if (retry >= policy.maxRetries) {
          setPrompt(policy.firstFailurePrompt)
          setOutcome('failed')
          if (policy.giveUpPath) navigate(policy.giveUpPath)
          return
        }
        const next = retry + 1
        setPrompt(retry === 0 ? policy.firstFailurePrompt : t('oauth.retrying', { attempt: next }))
        await wait(RETRY_STEP_MS * next)
        if (mounted.current) await attempt(next)
      }
    }
    void attempt(0)
  }, [])

  return { prompt, outcome }
}
