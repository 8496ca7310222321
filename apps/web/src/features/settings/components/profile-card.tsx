import { Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core'
import { roleName } from '@one-api/contracts/roles'
import { IconEdit } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { renderQuota } from '@/lib/quota-format.ts'
import { useStatus } from '@/lib/status.ts'
import { useSelf } from '../api/get-self.ts'

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text>{value}</Text>
    </Stack>
  )
}

export function ProfileCard() {
  const { t } = useTranslation()
  const status = useStatus()
  const self = useSelf()
  const user = self.data
  const quota = (value: number) => renderQuota(value, status.displayInCurrency, status.quotaPerUnit)
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="md">
        <Title order={3} size="h4">
          {t('settings.profileTitle')}
        </Title>
        <Button component={Link} to="/user/edit" variant="light" leftSection={<IconEdit size={16} />}>
          {t('settings.editProfile')}
        </Button>
      </Group>
      {user ? (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
          <Field label={t('settings.username')} value={user.username} />
          <Field label={t('settings.displayName')} value={user.display_name || '-'} />
          <Stack gap={2}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('settings.role')}
            </Text>
            <Badge variant="light" w="fit-content">
              {t(`roles.${roleName(user.role)}`)}
            </Badge>
          </Stack>
          <Field label={t('settings.group')} value={user.group} />
          <Field label={t('settings.remainingQuota')} value={quota(user.quota)} />
          <Field label={t('settings.usedQuota')} value={quota(user.used_quota)} />
          <Field label={t('settings.requestCount')} value={String(user.request_count)} />
        </SimpleGrid>
      ) : (
        <Skeleton h={120} visible={self.isPending} />
      )}
    </Card>
  )
}
