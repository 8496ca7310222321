import { PasswordInput } from '@mantine/core'
import type { UseFormReturnType } from '@mantine/form'

interface PasswordValues {
  password: string
  password_again?: string
}

interface PasswordFieldsProps<Values extends PasswordValues> {
  form: UseFormReturnType<Values>
  label: string
  placeholder?: string
  /** Marked required (a new account); else an empty field keeps the password. */
  required?: boolean
  /** The label of a second field that repeats the password, when the form asks for it. */
  confirmLabel?: string
}

/**
 * The new-password input of the account forms (a new user, an edited user, one's own profile),
 * with the repeated password when `confirmLabel` is given: `password` and `password_again` of the
 * form's values, never filled in by the browser's saved password.
 */
export function PasswordFields<Values extends PasswordValues>({
  form,
  label,
  placeholder,
  required,
  confirmLabel,
}: PasswordFieldsProps<Values>) {
  // The form's own field names, typed for any form that has them.
  const field = (name: keyof PasswordValues) => name as Parameters<typeof form.key>[0]
  return (
    <>
      <PasswordInput
        label={label}
        placeholder={placeholder}
        autoComplete="new-password"
        withAsterisk={required}
        key={form.key(field('password'))}
        {...form.getInputProps(field('password'))}
      />
      {confirmLabel && (
        <PasswordInput
          label={confirmLabel}
          autoComplete="new-password"
          key={form.key(field('password_again'))}
          {...form.getInputProps(field('password_again'))}
        />
      )}
    </>
  )
}
