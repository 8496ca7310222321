import { Stack } from '@mantine/core'
import { useForm } from '@mantine/form'
import { type CreateUserInput, createUserInputSchema } from '@one-api/contracts/user-admin'
import { useTranslation } from 'react-i18next'
import { FormActions } from '@/components/form-actions.tsx'
import { schemaValidator } from '@/lib/form-validation.ts'
import { UserIdentityFields } from './user-identity-fields.tsx'

export interface AddUserValues {
  username: string
  display_name: string
  password: string
}

const EMPTY: AddUserValues = { username: '', display_name: '', password: '' }

export function toCreateUserPayload(values: AddUserValues): CreateUserInput {
  return {
    username: values.username.trim(),
    display_name: values.display_name.trim(),
    password: values.password,
  }
}

const validate = schemaValidator(createUserInputSchema, toCreateUserPayload, { fallbackField: 'username' })

interface AddUserFormProps {
  submitting: boolean
  onSubmit: (payload: CreateUserInput) => void
  onCancel: () => void
}

/** A new normal user: username and password required, display name optional. */
export function AddUserForm({ submitting, onSubmit, onCancel }: AddUserFormProps) {
  const { t } = useTranslation()
  const form = useForm<AddUserValues>({ mode: 'controlled', initialValues: EMPTY, validate })
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(toCreateUserPayload(values)))} noValidate>
      <Stack gap="md" maw={560}>
        <UserIdentityFields form={form} newUser />
        <FormActions submitLabel={t('users.form.create')} submitting={submitting} onCancel={onCancel} />
      </Stack>
    </form>
  )
}
