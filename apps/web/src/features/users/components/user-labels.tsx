import { Group } from '@mantine/core'
import { UserStatus } from '@one-api/contracts'
import { roleName } from '@one-api/contracts/roles'
import { useTranslation } from 'react-i18next'
import { ToneBadge } from '@/components/tone-badge.tsx'
import { groupColor, groupsOf, roleColor } from '../lib/user-display.ts'

export function RoleBadge({ role }: { role: number }) {
  const { t } = useTranslation()
  return <ToneBadge color={roleColor(role)}>{t(`roles.${roleName(role)}`)}</ToneBadge>
}

/** One badge per group of the comma list (empty: default). */
export function GroupBadges({ group }: { group: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      {groupsOf(group).map((name) => (
        <ToneBadge key={name} color={groupColor(name)}>
          {name}
        </ToneBadge>
      ))}
    </Group>
  )
}

/** Activated (green) or banned (red); anything else unknown. */
export function UserStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation()
  if (status === UserStatus.enabled) return <ToneBadge color="green">{t('users.status.enabled')}</ToneBadge>
  if (status === UserStatus.disabled) return <ToneBadge color="red">{t('users.status.disabled')}</ToneBadge>
  return <ToneBadge color="gray">{t('users.status.unknown')}</ToneBadge>
}
