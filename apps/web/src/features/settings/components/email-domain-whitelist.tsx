import { ActionIcon, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core'
import { IconPlus, IconX } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { notifyInfo, notifySuccess } from '@/lib/notify.ts'
import type { OptionValues } from '../api/list-options.ts'
import { useUpdateOptions } from '../api/update-options.ts'
import { addDomain, parseDomains } from '../lib/email-domains.ts'

/** The domains registration by email accepts while the restriction is on. */
export function EmailDomainWhitelist({ stored }: { stored: OptionValues }) {
  const { t } = useTranslation()
  const save = useUpdateOptions()
  const initial = parseDomains(stored.EmailDomainWhitelist ?? '')
  const [domains, setDomains] = useState(initial)
  const [entry, setEntry] = useState('')
  const title = t('settings.sections.emailWhitelist')
  const add = () => {
    setDomains((current) => addDomain(current, entry))
    setEntry('')
  }
  const submit = () => {
    const value = domains.join(',')
    if (value === initial.join(',')) {
      notifyInfo(t('settings.nothingChanged'))
      return
    }
    save.mutate([{ key: 'EmailDomainWhitelist', value }], {
      onSuccess: () => notifySuccess(t('settings.saved')),
    })
  }
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <div>
          <Title order={3} size="h4">
            {title}
          </Title>
          <Text size="sm" mt={4}>
            {t('settings.emailWhitelistHelp')}
          </Text>
        </div>
        <Group gap={6} aria-label={t('settings.emailWhitelistListed')}>
          {domains.length === 0 && <Text size="sm">{t('settings.emailWhitelistEmpty')}</Text>}
          {domains.map((domain) => (
            <Badge
              key={domain}
              variant="light"
              size="lg"
              tt="none"
              rightSection={
                <ActionIcon
                  size="xs"
                  variant="transparent"
                  color="gray"
                  aria-label={t('settings.emailWhitelistRemove', { domain })}
                  onClick={() => setDomains((current) => current.filter((listed) => listed !== domain))}
                >
                  <IconX size={12} />
                </ActionIcon>
              }
            >
              {domain}
            </Badge>
          ))}
        </Group>
        <Group align="flex-end" gap="xs">
          <TextInput
            label={t('settings.emailWhitelistAdd')}
            placeholder="example.com"
            value={entry}
            onChange={(event) => setEntry(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault()
                add()
              }
            }}
            style={{ flex: '1 1 200px' }}
          />
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={add}>
            {t('settings.add')}
          </Button>
        </Group>
        <Group>
          <Button onClick={submit} loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Card>
  )
}
