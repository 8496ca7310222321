import { Stack, Text, Tooltip } from '@mantine/core'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import type { Column } from '@/components/data-table/data-table.tsx'
import type { UserView } from '../api/user-keys.ts'
import { truncateUsername } from '../lib/user-display.ts'
import { GroupBadges, RoleBadge, UserStatusBadge } from './user-labels.tsx'

/**
 * The username, cut after 15 characters, with the display name under it, and the last sign-in
 * address where it matters (the same-IP view, a search by IP).
 */
export function UsernameCell({ user, showIp }: { user: UserView; showIp: boolean }) {
  const { t } = useTranslation()
  const short = truncateUsername(user.username)
  return (
    <Stack gap={0}>
      {short === user.username ? (
        <Text size="sm">{short}</Text>
      ) : (
        <Tooltip label={user.username}>
          <Text size="sm" aria-label={user.username}>
            {short}
          </Text>
        </Tooltip>
      )}
      {user.display_name && user.display_name !== user.username && <Text size="xs">{user.display_name}</Text>}
      {showIp && <Text size="xs">{t('users.lastIp', { ip: user.last_login_ip || '-' })}</Text>}
    </Stack>
  )
}

/** The list's columns; each header sorts the loaded rows by its field. */
export function userColumns(
  t: TFunction,
  quota: (value: number) => string,
  showIp: boolean,
): Column<UserView>[] {
  return [
    { key: 'id', header: t('users.columns.id'), render: (row) => row.id, sortable: true, hideOnPhone: true },
    {
      key: 'username',
      header: t('users.columns.username'),
      render: (row) => <UsernameCell user={row} showIp={showIp} />,
      sortable: true,
      hideOnPhone: !showIp,
    },
    {
      key: 'group',
      header: t('users.columns.group'),
      render: (row) => <GroupBadges group={row.group} />,
      sortable: true,
    },
    { key: 'quota', header: t('users.columns.quota'), render: (row) => quota(row.quota), sortable: true },
    {
      key: 'used_quota',
      header: t('users.columns.used'),
      render: (row) => quota(row.used_quota),
      sortable: true,
    },
    {
      key: 'request_count',
      header: t('users.columns.requests'),
      render: (row) => row.request_count,
      sortable: true,
    },
    {
      key: 'role',
      header: t('users.columns.role'),
      render: (row) => <RoleBadge role={row.role} />,
      sortable: true,
    },
    {
      key: 'status',
      header: t('users.columns.status'),
      render: (row) => <UserStatusBadge status={row.status} />,
      sortable: true,
    },
  ]
}
