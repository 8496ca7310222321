import { Button, Modal, Stack } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { notifySuccess } from '@/lib/notify.ts'
import { bindEmail } from '../api/email.ts'
import { useTurnstile } from '../lib/use-turnstile.tsx'
import { EmailCodeFields } from './email-code-fields.tsx'

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

interface BindEmailModalProps {
  opened: boolean
  onClose: () => void
  onBound: () => void
}

/** Binding an email address: a code is mailed to it (resend after 30 s), then typed here. */
export function BindEmailModal({ opened, onClose, onBound }: BindEmailModalProps) {
  const { t } = useTranslation()
  // The compact bot check (130x120 px) fits the modal on a phone.
  const turnstile = useTurnstile('compact')
  const [binding, setBinding] = useState(false)
  const form = useForm({
    initialValues: { email: '', code: '' },
    validate: {
      email: (value) => (EMAIL_PATTERN.test(value.trim()) ? null : t('account.emailInvalid')),
      code: (value) => (value.trim() ? null : t('account.codeRequired')),
    },
  })
  const submit = async (values: { email: string; code: string }) => {
    setBinding(true)
    try {
      await bindEmail(values.email.trim(), values.code.trim())
      notifySuccess(t('account.emailBound'))
      form.reset()
      onBound()
    } catch {
      // The failure was shown as a toast.
    } finally {
      setBinding(false)
    }
  }
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('account.bindEmail')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <EmailCodeFields
            emailInput={form.getInputProps('email')}
            codeInput={form.getInputProps('code')}
            email={form.getValues().email.trim()}
            turnstileToken={turnstile.token}
            check={() => !form.validateField('email').hasError && turnstile.ready()}
          >
            {turnstile.widget}
          </EmailCodeFields>
          <Button type="submit" loading={binding}>
            {t('account.bind')}
          </Button>
        </Stack>
      </form>
    </Modal>
  )
}
