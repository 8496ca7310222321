import { Button, Stack } from '@mantine/core'
import { IconTicket } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useSelf } from '../api/get-self.ts'
import { AccessTokenCard } from './access-token-card.tsx'
import { AccountBindingsCard } from './account-bindings-card.tsx'
import { DeleteAccountCard } from './delete-account-card.tsx'
import { InviteLinkCard } from './invite-link-card.tsx'
import type { PersonalSlots } from './personal-slots.tsx'
import { ProfileCard } from './profile-card.tsx'

/** The personal tab, open to every signed-in user. */
export function PersonalSettings({ slots = {} }: { slots?: PersonalSlots }) {
  const { t } = useTranslation()
  const self = useSelf()
  const user = self.data
  return (
    <Stack gap="md">
      <ProfileCard />
      {/* Redeeming a code (and the top-up link) is the /topup page of the redemption feature. */}
      <Button component={Link} to="/topup" variant="light" w="fit-content" leftSection={<IconTicket size={16} />}>
        {t('redemptions.redeem.title')}
      </Button>
      {user && slots.redeemCode?.(user)}
      {user && <AccountBindingsCard user={user} actions={slots.accountBindingActions?.(user)} />}
      <AccessTokenCard />
      <InviteLinkCard />
      <DeleteAccountCard />
    </Stack>
  )
}
