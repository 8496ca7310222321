import { Button, Image, Modal, Stack, Text, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useStatus } from '@/lib/status.ts'

interface WeChatCodeModalProps {
  opened: boolean
  title: string
  submitLabel: string
  onClose: () => void
  /** Called with the code the official account sent; resolves when done, rejects to keep the modal open. */
  onSubmit: (code: string) => Promise<void>
}

/**
 * The official account's QR code and the code entry: the person follows the account, sends it
 * "verification code" and types the code it answers (valid three minutes).
 */
export function WeChatCodeModal({ opened, title, submitLabel, onClose, onSubmit }: WeChatCodeModalProps) {
  const { t } = useTranslation()
  const status = useStatus()
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!code.trim()) return
    setBusy(true)
    try {
      await onSubmit(code.trim())
      setCode('')
    } catch {
      // The failure was shown as a toast; the person may correct the code.
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit}>
        <Stack gap="sm" align="stretch">
          {status.wechat_qrcode ? (
            <Image
              src={status.wechat_qrcode}
              alt={t('account.wechatQrAlt')}
              w={200}
              h={200}
              fit="contain"
              mx="auto"
            />
          ) : null}
          <Text size="sm">{t('account.wechatHelp')}</Text>
          <TextInput
            label={t('account.wechatCode')}
            required
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Modal>
  )
}
