import { Card, Stack, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { type UpdateSelfInput, updateSelfInputSchema } from '@one-api/contracts'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { FormActions } from '@/components/form-actions.tsx'
import { Loading } from '@/components/loading.tsx'
import { PasswordFields } from '@/components/password-fields.tsx'
import { schemaValidator } from '@/lib/form-validation.ts'
import { notifyInfo, notifySuccess } from '@/lib/notify.ts'
import { getStoredUser, storeUser } from '@/lib/user-store.ts'
import { type SelfUser, useSelf } from '../api/get-self.ts'
import { useUpdateSelf } from '../api/update-self.ts'

export interface ProfileFormValues {
  username: string
  display_name: string
  password: string
  password_again: string
}

/** The fields that differ from the stored profile; a password only when one was typed. */
export function profileChanges(user: Pick<SelfUser, 'username' | 'display_name'>, values: ProfileFormValues) {
  const input: UpdateSelfInput = {}
  if (values.username.trim() !== user.username) input.username = values.username.trim()
  if (values.display_name.trim() !== user.display_name) input.display_name = values.display_name.trim()
  if (values.password !== '') input.password = values.password
  return input
}

interface ProfileFormProps {
  user: SelfUser
  submitting: boolean
  onSubmit: (input: UpdateSelfInput) => void
  onCancel: () => void
}

/** Username, display name and a new password: no group or quota, which only administrators set. */
export function ProfileForm({ user, submitting, onSubmit, onCancel }: ProfileFormProps) {
  const { t } = useTranslation()
  const schemaErrors = schemaValidator(
    updateSelfInputSchema,
    (values: ProfileFormValues) => profileChanges(user, values),
    {
      fallbackField: 'username',
    },
  )
  const form = useForm<ProfileFormValues>({
    mode: 'uncontrolled',
    initialValues: {
      username: user.username,
      display_name: user.display_name,
      password: '',
      password_again: '',
    },
    validate: (values) => {
      const errors = schemaErrors(values)
      if (values.password !== values.password_again)
        errors.password_again = t('settings.profile.passwordsDiffer')
      return errors
    },
  })
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        const input = profileChanges(user, values)
        if (Object.keys(input).length === 0) notifyInfo(t('settings.nothingChanged'))
        else onSubmit(input)
      })}
    >
      <Stack gap="md" maw={560}>
        <TextInput
          label={t('settings.username')}
          autoComplete="username"
          key={form.key('username')}
          {...form.getInputProps('username')}
        />
        <TextInput
          label={t('settings.displayName')}
          autoComplete="nickname"
          key={form.key('display_name')}
          {...form.getInputProps('display_name')}
        />
        <PasswordFields
          form={form}
          label={t('settings.profile.newPassword')}
          placeholder={t('settings.profile.passwordPlaceholder')}
          confirmLabel={t('settings.profile.passwordAgain')}
        />
        <FormActions submitLabel={t('common.save')} submitting={submitting} onCancel={onCancel} />
      </Stack>
    </form>
  )
}

/** /user/edit: the signed-in user edits their own profile. */
export function ProfileEditPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const self = useSelf()
  const update = useUpdateSelf()
  return (
    <Stack gap="md">
      <Title order={2}>{t('settings.profile.title')}</Title>
      <Card withBorder padding="lg">
        {self.data ? (
          <ProfileForm
            user={self.data}
            submitting={update.isPending}
            onCancel={() => void navigate('/setting')}
            onSubmit={(input) =>
              update.mutate(input, {
                onSuccess: (user) => {
                  const stored = getStoredUser()
                  if (stored && user)
                    storeUser({ ...stored, username: user.username, display_name: user.display_name })
                  notifySuccess(t('settings.profile.saved'))
                  void navigate('/setting')
                },
              })
            }
          />
        ) : (
          <Loading />
        )}
      </Card>
    </Stack>
  )
}
