import { Stack, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { RedeemCodeCard } from '../components/redeem-code-card.tsx'

/** /topup (one-api's top-up page): the balance, redeeming a code and the link to buy one. */
export function TopUpPage() {
  const { t } = useTranslation()
  return (
    <Stack gap="md" maw={720}>
      <Title order={2}>{t('redemptions.redeem.pageTitle')}</Title>
      <RedeemCodeCard />
    </Stack>
  )
}
