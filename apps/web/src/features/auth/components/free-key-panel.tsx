import {
  Alert,
  Anchor,
  Button,
  CopyButton,
  Group,
  List,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core'
import { IconCheck, IconCopy } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { ConsoleStatus } from '@/lib/status.ts'
import { defaultTokenKey } from '../api/free-key.ts'

function CopyField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation()
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput
        label={label}
        value={value}
        readOnly
        style={{ flex: 1 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            variant="light"
            onClick={copy}
            aria-label={t('freeKey.copyLabel', { field: label })}
            leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          >
            {copied ? t('reset.copied') : t('reset.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  )
}

/**
 * Free-key mode, after a GitHub sign-in: the API URL and the person's key (their default token,
 * created when they have none), with the notes on keeping it private and the paid service.
 */
export function FreeKeyPanel({ status }: { status: ConsoleStatus }) {
  const { t } = useTranslation()
  const key = useQuery({ queryKey: ['tokens', 'free-key'], queryFn: defaultTokenKey, staleTime: Infinity })
  const apiUrl = (status.server_address || window.location.origin).replace(/\/+$/, '')
  return (
    <Stack gap="md" maw={560} mx="auto" py="xl" px="md">
      <Alert color="blue" title={t('oauth.authorized')}>
        {t('freeKey.intro')}
      </Alert>
      <CopyField label={t('freeKey.apiUrl')} value={apiUrl} />
      {key.data ? (
        <CopyField label={t('freeKey.apiKey')} value={key.data} />
      ) : key.isError ? (
        <Alert color="red">{t('freeKey.keyFailed')}</Alert>
      ) : (
        <Skeleton h={60} />
      )}
      <List size="sm" spacing={4}>
        <List.Item>{t('freeKey.keepPrivate')}</List.Item>
        <List.Item>{t('freeKey.personalUse')}</List.Item>
      </List>
      {status.free_key_paid_link && (
        <Text size="sm">
          {t('freeKey.paidIntro')}{' '}
          <Anchor href={status.free_key_paid_link} target="_blank" rel="noreferrer">
            {t('freeKey.paidLink')}
          </Anchor>
        </Text>
      )}
      <Button component={Link} to="/token" variant="default" w="fit-content">
        {t('freeKey.manageTokens')}
      </Button>
    </Stack>
  )
}
