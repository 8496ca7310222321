import { useEffect, useState } from 'react'

/** Seconds before another mail may be asked for: the server accepts one per address every 30 s. */
export const RESEND_SECONDS = 30

/** A countdown in whole seconds: `start()` sets it to `seconds`, it reaches 0 one second at a time. */
export function useCountdown(seconds = RESEND_SECONDS): { remaining: number; start: () => void } {
  const [remaining, setRemaining] = useState(0)
  useEffect(() => {
    if (remaining <= 0) return
    const timer = setTimeout(() => setRemaining((value) => value - 1), 1000)
    return () => clearTimeout(timer)
  }, [remaining])
  return { remaining, start: () => setRemaining(seconds) }
}
