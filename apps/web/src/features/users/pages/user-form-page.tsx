import { Alert, Stack, Title } from '@mantine/core'
import { parseRowId } from '@one-api/contracts/user-admin'
import { useTranslation } from 'react-i18next'
import { useMatch, useNavigate, useParams } from 'react-router'
import { Loading } from '@/components/loading.tsx'
import { notifySuccess } from '@/lib/notify.ts'
import { renderQuota } from '@/lib/quota-format.ts'
import { useStatus } from '@/lib/status.ts'
import { useCreateUser } from '../api/create-user.ts'
import { useUser } from '../api/get-user.ts'
import { useGroups } from '../api/list-groups.ts'
import { useUpdateUser } from '../api/update-user.ts'
import { AddUserForm } from '../components/add-user-form.tsx'
import { EditUserForm } from '../components/edit-user-form.tsx'

function AddUser({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation()
  const create = useCreateUser()
  return (
    <AddUserForm
      submitting={create.isPending}
      onCancel={onDone}
      onSubmit={(payload) =>
        create.mutate(payload, {
          onSuccess: () => {
            notifySuccess(t('users.created', { name: payload.username }))
            onDone()
          },
        })
      }
    />
  )
}

function EditUser({ id, onDone }: { id: number; onDone: () => void }) {
  const { t } = useTranslation()
  const status = useStatus()
  const user = useUser(id)
  const groups = useGroups()
  const update = useUpdateUser()
  if (user.isError) return <Alert color="red">{user.error.message}</Alert>
  if (!user.data) return <Loading />
  return (
    <EditUserForm
      user={user.data}
      groups={groups.data ?? []}
      renderQuota={(quota) => renderQuota(quota, status.displayInCurrency, status.quotaPerUnit)}
      submitting={update.isPending}
      onCancel={onDone}
      onSubmit={(payload) =>
        update.mutate(payload, {
          onSuccess: () => {
            notifySuccess(t('users.updated'))
            onDone()
          },
        })
      }
    />
  )
}

/**
 * /user/add (a new user) and /user/edit/:id (another user, with group and quota); one's own profile
 * (/user/edit) is a settings screen.
 */
export function UserFormPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { id } = useParams()
  const adding = useMatch('/user/add') !== null
  const onDone = () => void navigate('/user')
  if (adding) {
    return (
      <Stack gap="md">
        <Title order={2}>{t('users.addTitle')}</Title>
        <AddUser onDone={onDone} />
      </Stack>
    )
  }
  const rowId = id === undefined ? undefined : parseRowId(id)
  return (
    <Stack gap="md">
      <Title order={2}>{t('users.editTitle', { id })}</Title>
      {rowId === undefined ? (
        <Alert color="red">{t('users.badId')}</Alert>
      ) : (
        <EditUser id={rowId} onDone={onDone} />
      )}
    </Stack>
  )
}
