import { useEffect, useRef } from 'react'

const SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit'

interface TurnstileApi {
  render(
    container: HTMLElement,
    options: { sitekey: string; size: TurnstileSize; callback: (token: string) => void },
  ): string
  remove(widgetId: string): void
}

declare global {
  interface Window {
    turnstile?: TurnstileApi
  }
}

/** Turnstile's two widget sizes: normal 300x65 px, compact 130x120 px (for narrow places). */
export type TurnstileSize = 'normal' | 'compact'
const DIMENSIONS: Record<TurnstileSize, { width: number; height: number }> = {
  normal: { width: 300, height: 65 },
  compact: { width: 130, height: 120 },
}

let scriptPromise: Promise<TurnstileApi> | undefined

/** Loads Cloudflare's script once, and only when a page actually shows the widget. */
function loadTurnstile(): Promise<TurnstileApi> {
  scriptPromise ??= new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = SCRIPT_URL
    script.async = true
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('no turnstile')))
    script.onerror = () => {
      scriptPromise = undefined
      reject(new Error('the Turnstile script could not be loaded'))
    }
    document.head.append(script)
  })
  return scriptPromise
}

/** The bot-challenge widget; reports its token through onVerify. */
export function TurnstileWidget({
  siteKey,
  onVerify,
  size = 'normal',
}: {
  siteKey: string
  onVerify: (token: string) => void
  size?: TurnstileSize
}) {
  const container = useRef<HTMLDivElement>(null)
  const verify = useRef(onVerify)
  verify.current = onVerify
  useEffect(() => {
    let widgetId: string | undefined
    let cancelled = false
    loadTurnstile()
      .then((turnstile) => {
        if (cancelled || !container.current) return
        widgetId = turnstile.render(container.current, {
          sitekey: siteKey,
          size,
          callback: (token) => verify.current(token),
        })
      })
      .catch(() => {
        // The form still works; the server rejects the sign-in without a token and says why.
      })
    return () => {
      cancelled = true
      if (widgetId) window.turnstile?.remove(widgetId)
    }
  }, [siteKey, size])
  return <div ref={container} style={DIMENSIONS[size]} data-testid="turnstile" data-size={size} />
}
