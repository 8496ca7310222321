import { NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { type UpdateUserInput, updateUserInputSchema } from '@one-api/contracts/user-admin'
import { useTranslation } from 'react-i18next'
import { FormActions } from '@/components/form-actions.tsx'
import { schemaValidator } from '@/lib/form-validation.ts'
import type { UserView } from '../api/user-keys.ts'
import { UserIdentityFields } from './user-identity-fields.tsx'

export interface EditUserValues {
  username: string
  display_name: string
  password: string
  group: string
  quota: number | string
}

export function editValuesOf(user: UserView): EditUserValues {
  return {
    username: user.username,
    display_name: user.display_name,
    password: '',
    group: user.group || 'default',
    quota: user.quota,
  }
}

/**
 * The PUT body. A blank password keeps the current one; the quota is sent only when changed, so
 * what the user's requests spent while the form was open is not written back.
 */
export function toUpdateUserPayload(user: UserView, values: EditUserValues): UpdateUserInput {
  const quota = Number.parseInt(String(values.quota), 10)
  return {
    id: user.id,
    username: values.username.trim(),
    display_name: values.display_name.trim(),
    password: values.password,
    group: values.group,
    ...(quota === user.quota ? {} : { quota }),
  }
}

interface EditUserFormProps {
  user: UserView
  /** The groups to choose from (the user's own is added when missing). */
  groups: string[]
  /** The quota as the console shows it, for the hint under the field. */
  renderQuota: (quota: number) => string
  submitting: boolean
  onSubmit: (payload: UpdateUserInput) => void
  onCancel: () => void
}

function ReadOnly({ label, value }: { label: string; value: string }) {
  return <TextInput label={label} value={value || '-'} readOnly variant="filled" />
}

/** Another user's profile, group and quota, and the accounts bound to it (read-only). */
export function EditUserForm({
  user,
  groups,
  renderQuota,
  submitting,
  onSubmit,
  onCancel,
}: EditUserFormProps) {
  const { t } = useTranslation()
  const form = useForm<EditUserValues>({
    mode: 'controlled',
    initialValues: editValuesOf(user),
    validate: schemaValidator(
      updateUserInputSchema,
      (values: EditUserValues) => toUpdateUserPayload(user, values),
      {
        fallbackField: 'username',
      },
    ),
  })
  const quota = Number.parseInt(String(form.getValues().quota), 10)
  const groupChoices = [...new Set([...groups, user.group || 'default'])]
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(toUpdateUserPayload(user, values)))} noValidate>
      <Stack gap="md" maw={640}>
        <UserIdentityFields form={form} />
        <Select
          label={t('users.form.group')}
          data={groupChoices}
          allowDeselect={false}
          key={form.key('group')}
          {...form.getInputProps('group')}
        />
        <NumberInput
          label={t('users.form.quota')}
          description={
            Number.isFinite(quota) ? t('users.form.quotaHint', { value: renderQuota(quota) }) : undefined
          }
          styles={{ description: { color: 'var(--mantine-color-text)' } }}
          allowDecimal={false}
          thousandSeparator=","
          min={0}
          key={form.key('quota')}
          {...form.getInputProps('quota')}
        />
        <Text size="sm" fw={600}>
          {t('users.form.bound')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <ReadOnly label={t('users.form.email')} value={user.email} />
          <ReadOnly label={t('users.form.github')} value={user.github_id} />
          <ReadOnly label={t('users.form.wechat')} value={user.wechat_id} />
        </SimpleGrid>
        <FormActions submitLabel={t('users.form.save')} submitting={submitting} onCancel={onCancel} />
      </Stack>
    </form>
  )
}
