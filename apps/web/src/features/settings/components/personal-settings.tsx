import { Stack } from '@mantine/core'
import { AccountBindingsCard } from '@/features/auth/components/account-bindings-card.tsx'
import { AccessTokenCard } from './access-token-card.tsx'
import { InviteLinkCard } from './invite-link-card.tsx'
import { ProfileCard } from './profile-card.tsx'

/** The personal tab, open to every signed-in user. */
export function PersonalSettings() {
  return (
    <Stack gap="md">
      <ProfileCard />
      <AccountBindingsCard />
      <AccessTokenCard />
      <InviteLinkCard />
    </Stack>
  )
}
