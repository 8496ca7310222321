import { ActionIcon, Button, Card, Code, Group, Stack, Text, Title, Tooltip } from '@mantine/core'
import { IconCopy, IconKey } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { copyText } from '@/lib/clipboard.ts'
import { notifySuccess } from '@/lib/notify.ts'
import { useGenerateAccessToken } from '../api/generate-access-token.ts'

/** The system access token lets scripts call the management API as this user (Authorization header). */
export function AccessTokenCard() {
  const { t } = useTranslation()
  const generate = useGenerateAccessToken()
  const token = generate.data
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('settings.accessTokenTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('settings.accessTokenHelp')}
        </Text>
        <Button
          w="fit-content"
          leftSection={<IconKey size={16} />}
          loading={generate.isPending}
          onClick={() =>
            generate.mutate(undefined, { onSuccess: () => notifySuccess(t('settings.accessTokenGenerated')) })
          }
        >
          {t('settings.generateAccessToken')}
        </Button>
        {token && (
          <Group gap="xs" wrap="nowrap">
            <Code data-testid="access-token" fz="sm" style={{ wordBreak: 'break-all' }}>
              {token}
            </Code>
            <Tooltip label={t('clipboard.copy')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('clipboard.copy')}
                onClick={() => void copyText(token)}
              >
                <IconCopy size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        )}
      </Stack>
    </Card>
  )
}
