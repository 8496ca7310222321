import { Stack } from '@mantine/core'
import { useSelf } from '../api/get-self.ts'
import { AccessTokenCard } from './access-token-card.tsx'
import { AccountBindingsCard } from './account-bindings-card.tsx'
import { DeleteAccountCard } from './delete-account-card.tsx'
import { InviteLinkCard } from './invite-link-card.tsx'
import type { PersonalSlots } from './personal-slots.tsx'
import { ProfileCard } from './profile-card.tsx'

/** The personal tab, open to every signed-in user. */
export function PersonalSettings({ slots = {} }: { slots?: PersonalSlots }) {
  const self = useSelf()
  const user = self.data
  return (
    <Stack gap="md">
      <ProfileCard />
      {user && slots.redeemCode?.(user)}
      {user && <AccountBindingsCard user={user} actions={slots.accountBindingActions?.(user)} />}
      <AccessTokenCard />
      <InviteLinkCard />
      <DeleteAccountCard />
    </Stack>
  )
}
