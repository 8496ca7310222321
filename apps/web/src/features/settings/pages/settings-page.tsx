import { Stack, Tabs, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { isRoot, useStoredUser } from '@/lib/user-store.ts'
import { PersonalSettings } from '../components/personal-settings.tsx'

/** The super administrator's tabs; their forms arrive with the settings issue. */
const ROOT_TABS = ['operation', 'system', 'other'] as const

type Tab = 'personal' | (typeof ROOT_TABS)[number]

export function SettingsPage() {
  const { t } = useTranslation()
  const user = useStoredUser()
  const [searchParams, setSearchParams] = useSearchParams()
  const tabs: Tab[] = ['personal', ...(isRoot(user) ? ROOT_TABS : [])]
  const requested = searchParams.get('tab') ?? 'personal'
  const active = tabs.find((tab) => tab === requested) ?? 'personal'
  return (
    <Stack gap="md">
      <Title order={2}>{t('settings.title')}</Title>
      <Tabs value={active} onChange={(tab) => setSearchParams(tab ? { tab } : {}, { replace: true })}>
        <Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Tab key={tab} value={tab}>
              {t(`settings.tabs.${tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="personal" pt="md">
          <PersonalSettings />
        </Tabs.Panel>
        {ROOT_TABS.map((tab) => (
          <Tabs.Panel key={tab} value={tab} pt="md">
            <Text c="dimmed">{t(`settings.tabDescriptions.${tab}`)}</Text>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  )
}
