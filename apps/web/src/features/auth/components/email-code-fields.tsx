import { Group, TextInput } from '@mantine/core'
import type { GetInputPropsReturnType } from '@mantine/form'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { SendCodeButton } from './send-code-button.tsx'

interface EmailCodeFieldsProps {
  /** The form's props for the address and for the code inputs. */
  emailInput: GetInputPropsReturnType
  codeInput: GetInputPropsReturnType
  /** The address typed, trimmed: where "Get code" mails the code. */
  email: string
  turnstileToken: string
  /** false stops the send (an invalid address, the bot check still running). */
  check: () => boolean
  /** Shown between the address and the code (the bind dialog's bot check). */
  children?: ReactNode
}

/** An email address, then its verification code beside the "Get code" button (sign-up, binding). */
export function EmailCodeFields({
  emailInput,
  codeInput,
  email,
  turnstileToken,
  check,
  children,
}: EmailCodeFieldsProps) {
  const { t } = useTranslation()
  return (
    <>
      <TextInput label={t('account.email')} type="email" autoComplete="email" required {...emailInput} />
      {children}
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          label={t('account.verificationCode')}
          autoComplete="one-time-code"
          required
          style={{ flex: 1 }}
          {...codeInput}
        />
        <SendCodeButton email={email} turnstileToken={turnstileToken} check={check} />
      </Group>
    </>
  )
}
