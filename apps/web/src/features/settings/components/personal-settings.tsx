import { Stack } from '@mantine/core'
import { AccountBindingsCard } from '@/features/auth/components/account-bindings-card.tsx'
import { RedeemCodeCard } from '@/features/redemptions/components/redeem-code-card.tsx'
import { AccessTokenCard } from './access-token-card.tsx'
import { DeleteAccountCard } from './delete-account-card.tsx'
import { InviteLinkCard } from './invite-link-card.tsx'
import { ProfileCard } from './profile-card.tsx'

/** The personal tab, open to every signed-in user. */
export function PersonalSettings() {
  return (
    <Stack gap="md">
      <ProfileCard />
      <RedeemCodeCard />
      <AccountBindingsCard />
      <AccessTokenCard />
      <InviteLinkCard />
      <DeleteAccountCard />
    </Stack>
  )
}
