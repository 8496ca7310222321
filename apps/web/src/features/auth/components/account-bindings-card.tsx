import { Card, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useStatus } from '@/lib/status.ts'
import { boundAccountsQuery } from '../api/self.ts'
import { AccountBindingActions } from './account-binding-actions.tsx'
import { enabledProviders } from './provider-buttons.tsx'

function Binding({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation()
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" truncate="end">
        {value || t('account.notBound')}
      </Text>
    </Stack>
  )
}

/** Personal settings: the email address and accounts bound to the user, and the bind buttons. */
export function AccountBindingsCard() {
  const { t } = useTranslation()
  const status = useStatus()
  const self = useQuery(boundAccountsQuery())
  const enabled = enabledProviders(status)
  const user = self.data
  const title = t('account.title')
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <Title order={4}>{title}</Title>
        {user ? (
          <>
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
              <Binding label={t('account.email')} value={user.email} />
              <Binding label="GitHub" value={user.github_id} />
              <Binding label={t('account.wechat')} value={user.wechat_id ? t('account.bound') : ''} />
              {(enabled.lark || user.lark_id) && (
                <Binding label={t('account.lark')} value={user.lark_id ? t('account.bound') : ''} />
              )}
              {(enabled.oidc || user.oidc_id) && (
                <Binding label="OIDC" value={user.oidc_id ? t('account.bound') : ''} />
              )}
            </SimpleGrid>
            <AccountBindingActions user={user} />
          </>
        ) : (
          <Skeleton h={120} visible={self.isPending} />
        )}
      </Stack>
    </Card>
  )
}
