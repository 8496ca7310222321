import { Button } from '@mantine/core'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { notifySuccess } from '@/lib/notify.ts'
import { sendVerificationCode } from '../api/email.ts'
import { useCountdown } from '../lib/use-countdown.ts'

interface SendCodeButtonProps {
  /** The address to mail; '' or an invalid one is refused by `check` before any call. */
  email: string
  turnstileToken: string
  /** false stops the send (an invalid address, the bot check still running). */
  check: () => boolean
}

/** "Get code": mails a verification code, then counts 30 s down before it can be asked again. */
export function SendCodeButton({ email, turnstileToken, check }: SendCodeButtonProps) {
  const { t } = useTranslation()
  const countdown = useCountdown()
  const [sending, setSending] = useState(false)
  const send = async () => {
    if (!check()) return
    setSending(true)
    try {
      const message = await sendVerificationCode(email, turnstileToken)
      notifySuccess(message || t('account.codeSent'))
      countdown.start()
    } catch {
      // The failure was shown as a toast.
    } finally {
      setSending(false)
    }
  }
  return (
    <Button variant="light" onClick={send} loading={sending} disabled={countdown.remaining > 0}>
      {countdown.remaining > 0
        ? t('account.resendIn', { seconds: countdown.remaining })
        : t('account.getCode')}
    </Button>
  )
}
