import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type TurnstileSize, TurnstileWidget } from '@/components/turnstile-widget.tsx'
import { notifyInfo } from '@/lib/notify.ts'
import { useStatus } from '@/lib/status.ts'

export interface TurnstileGate {
  /** The widget's token, '' until it passed (or when the check is off). */
  token: string
  /** The widget, or nothing when the administrator has not enabled the check. */
  widget: ReactNode
  /** false (after saying so) while the check is on and has not passed yet. */
  ready: () => boolean
}

/** The bot check of a form: shown when TurnstileCheckEnabled, its token sent as `?turnstile=`. */
export function useTurnstile(size: TurnstileSize = 'normal'): TurnstileGate {
  const { t } = useTranslation()
  const status = useStatus()
  const [token, setToken] = useState('')
  const enabled = status.turnstile_check === true && Boolean(status.turnstile_site_key)
  return {
    token,
    widget: enabled ? (
      <TurnstileWidget siteKey={status.turnstile_site_key ?? ''} onVerify={setToken} size={size} />
    ) : null,
    ready: () => {
      if (!enabled || token) return true
      notifyInfo(t('auth.turnstileWait'))
      return false
    },
  }
}
