import { TextInput } from '@mantine/core'
import type { UseFormReturnType } from '@mantine/form'
import { useTranslation } from 'react-i18next'
import { PasswordFields } from '@/components/password-fields.tsx'

interface IdentityValues {
  username: string
  display_name: string
  password: string
}

/**
 * Username, display name and password of the administrator's user forms: for a `newUser` with
 * hints and the password required, else an empty password keeps the stored one.
 */
export function UserIdentityFields<Values extends IdentityValues>({
  form,
  newUser = false,
}: {
  form: UseFormReturnType<Values>
  newUser?: boolean
}) {
  const { t } = useTranslation()
  const field = (name: keyof IdentityValues) => name as Parameters<typeof form.key>[0]
  return (
    <>
      <TextInput
        label={t('users.form.username')}
        placeholder={newUser ? t('users.form.usernamePlaceholder') : undefined}
        autoComplete="off"
        withAsterisk
        key={form.key(field('username'))}
        {...form.getInputProps(field('username'))}
      />
      <TextInput
        label={t('users.form.displayName')}
        placeholder={newUser ? t('users.form.displayNamePlaceholder') : undefined}
        autoComplete="off"
        key={form.key(field('display_name'))}
        {...form.getInputProps(field('display_name'))}
      />
      <PasswordFields
        form={form}
        label={t('users.form.password')}
        placeholder={newUser ? t('users.form.passwordPlaceholder') : t('users.form.newPasswordPlaceholder')}
        required={newUser}
      />
    </>
  )
}
