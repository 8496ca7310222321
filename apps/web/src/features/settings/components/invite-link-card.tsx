import { ActionIcon, Card, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core'
import { IconCopy } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { copyText } from '@/lib/clipboard.ts'
import { inviteLink, useInviteCode } from '../api/get-invite-code.ts'

/** The link that registers a new user with this user as the inviter. */
export function InviteLinkCard() {
  const { t } = useTranslation()
  const code = useInviteCode()
  const link = code.data ? inviteLink(code.data) : ''
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('settings.inviteTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('settings.inviteHelp')}
        </Text>
        <TextInput
          readOnly
          label={t('settings.inviteLink')}
          value={link}
          placeholder={code.isPending ? t('loading.short') : ''}
          rightSection={
            <Tooltip label={t('clipboard.copy')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('settings.copyInviteLink')}
                disabled={!link}
                onClick={() => void copyText(link)}
              >
                <IconCopy size={16} />
              </ActionIcon>
            </Tooltip>
          }
        />
      </Stack>
    </Card>
  )
}
