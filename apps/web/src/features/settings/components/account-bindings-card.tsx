import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { SelfUser } from '../api/get-self.ts'

function Binding({ label, value, none }: { label: string; value: string | undefined; none: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{value || none}</Text>
    </Stack>
  )
}

/** The accounts bound to this user; `actions` holds the sign-in feature's bind buttons. */
export function AccountBindingsCard({ user, actions }: { user: SelfUser; actions?: ReactNode }) {
  const { t } = useTranslation()
  const title = t('settings.bindingsTitle')
  const none = t('settings.notBound')
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
          <Binding label={t('settings.email')} value={user.email} none={none} />
          <Binding label={t('settings.github')} value={user.github_id} none={none} />
          <Binding label={t('settings.wechat')} value={user.wechat_id} none={none} />
        </SimpleGrid>
        {actions}
      </Stack>
    </Card>
  )
}
