import { Stack } from '@mantine/core'
import type { ReactNode } from 'react'
import { AccessTokenCard } from './access-token-card.tsx'
import { DeleteAccountCard } from './delete-account-card.tsx'
import { InviteLinkCard } from './invite-link-card.tsx'
import { ProfileCard } from './profile-card.tsx'

export interface PersonalSettingsProps {
  /**
   * Cards of other features shown under the profile (the balance and redemption, the bound accounts):
   * the app passes them in, so this feature does not import them.
   */
  cards?: ReactNode
}

/** The personal tab, open to every signed-in user. */
export function PersonalSettings({ cards }: PersonalSettingsProps) {
  return (
    <Stack gap="md">
      <ProfileCard />
      {cards}
      <AccessTokenCard />
      <InviteLinkCard />
      <DeleteAccountCard />
    </Stack>
  )
}
