import { Button } from '@mantine/core'
import { UserStatus } from '@one-api/contracts'
import type { ManageUserAction } from '@one-api/contracts/user-admin'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ConfirmButton } from '@/components/confirm-button.tsx'
import { notifySuccess } from '@/lib/notify.ts'
import { useManageUser } from '../api/manage-user.ts'
import type { UserView } from '../api/user-keys.ts'
import { permissionsOver } from '../lib/user-display.ts'

interface UserRowActionsProps {
  user: UserView
  /** The signed-in administrator's role. */
  actorRole: number
}

/**
 * Per row: promote or demote (super administrator only), enable or disable, edit, delete
 * (confirmed). What the server would refuse is shown disabled: an administrator acts only on
 * lower roles, and nobody disables or deletes the super administrator.
 */
export function UserRowActions({ user, actorRole }: UserRowActionsProps) {
  const { t } = useTranslation()
  const manage = useManageUser()
  const allowed = permissionsOver(actorRole, user.role)
  const name = user.username
  const act = (action: ManageUserAction) =>
    manage.mutateAsync({ username: name, action }).then(() => notifySuccess(t(`users.done.${action}`)))
  const enabled = user.status === UserStatus.enabled
  const common = { size: 'compact-sm', variant: 'light', loading: manage.isPending } as const
  return (
    <>
      {allowed.promote && (
        <Button {...common} aria-label={t('users.promoteOf', { name })} onClick={() => void act('promote')}>
          {t('users.promote')}
        </Button>
      )}
      {allowed.demote && (
        <Button {...common} aria-label={t('users.demoteOf', { name })} onClick={() => void act('demote')}>
          {t('users.demote')}
        </Button>
      )}
      <Button
        {...common}
        variant="default"
        disabled={enabled ? !allowed.remove : !allowed.manage}
        aria-label={t(enabled ? 'users.disableOf' : 'users.enableOf', { name })}
        onClick={() => void act(enabled ? 'disable' : 'enable')}
      >
        {t(enabled ? 'users.disable' : 'users.enable')}
      </Button>
      {allowed.manage ? (
        <Button
          {...common}
          loading={false}
          component={Link}
          to={`/user/edit/${user.id}`}
          aria-label={t('users.editOf', { name })}
        >
          {t('users.edit')}
        </Button>
      ) : (
        <Button {...common} loading={false} disabled aria-label={t('users.editOf', { name })}>
          {t('users.edit')}
        </Button>
      )}
      <ConfirmButton
        {...common}
        color="red"
        disabled={!allowed.remove}
        aria-label={t('users.deleteOf', { name })}
        title={t('users.deleteTitle', { name })}
        message={t('users.deleteConfirm')}
        confirmLabel={t('users.delete')}
        onConfirm={() => act('delete')}
      >
        {t('users.delete')}
      </ConfirmButton>
    </>
  )
}
