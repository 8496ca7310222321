import { Center, Group, Loader, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'

/** The placeholder while a lazy page loads: 'Loading {page} ...', the default word being 'page'. */
export function Loading({ page }: { page?: string }) {
  const { t } = useTranslation()
  return (
    <Center py="xl" role="status">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{t('loading.message', { page: page ?? t('loading.defaultPage') })}</Text>
      </Group>
    </Center>
  )
}
