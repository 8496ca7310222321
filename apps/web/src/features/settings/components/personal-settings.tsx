import { Button, Stack } from '@mantine/core'
import { IconTicket } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { AccountBindingsCard } from '@/features/auth/components/account-bindings-card.tsx'
import { AccessTokenCard } from './access-token-card.tsx'
import { DeleteAccountCard } from './delete-account-card.tsx'
import { InviteLinkCard } from './invite-link-card.tsx'
import { ProfileCard } from './profile-card.tsx'

/** The personal tab, open to every signed-in user. */
export function PersonalSettings() {
  const { t } = useTranslation()
  return (
    <Stack gap="md">
      <ProfileCard />
      {/* Redeeming a code (and the top-up link) is the /topup page of the redemption feature. */}
      <Button
        component={Link}
        to="/topup"
        variant="light"
        w="fit-content"
        leftSection={<IconTicket size={16} />}
      >
        {t('redemptions.redeem.title')}
      </Button>
      <AccountBindingsCard />
      <AccessTokenCard />
      <InviteLinkCard />
      <DeleteAccountCard />
    </Stack>
  )
}
