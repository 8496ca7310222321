import { Alert, Stack, Tabs, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { Loading } from '@/components/loading.tsx'
import { isRoot, useStoredUser } from '@/lib/user-store.ts'
import { type OptionValues, useOptions } from '../api/list-options.ts'
import { OperationSettings } from '../components/operation-settings.tsx'
import { OtherSettings } from '../components/other-settings.tsx'
import { PersonalSettings } from '../components/personal-settings.tsx'
import { SystemSettings } from '../components/system-settings.tsx'

/** The super administrator's tabs. */
const ROOT_TABS = ['operation', 'system', 'other'] as const

type Tab = 'personal' | (typeof ROOT_TABS)[number]

/** A root tab's content once the options are loaded. */
function WithOptions({ render }: { render: (stored: OptionValues) => ReactNode }) {
  const options = useOptions()
  if (options.isError) return <Alert color="red">{options.error.message}</Alert>
  if (!options.data) return <Loading />
  return render(options.data)
}

export interface SettingsPageProps {
  /** Cards of other features on the personal tab, under the profile (passed in by the app). */
  personalCards?: ReactNode
  /** Extra actions under the SMTP options, such as sending a test mail (passed in by the app). */
  smtpActions?: ReactNode
}

/** The settings tabs: personal for everyone, operation, system and other for the super administrator. */
export function SettingsPage({ personalCards, smtpActions }: SettingsPageProps) {
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
          <PersonalSettings cards={personalCards} />
        </Tabs.Panel>
        {active === 'operation' && (
          <Tabs.Panel value="operation" pt="md">
            <WithOptions render={(stored) => <OperationSettings stored={stored} />} />
          </Tabs.Panel>
        )}
        {active === 'system' && (
          <Tabs.Panel value="system" pt="md">
            <WithOptions render={(stored) => <SystemSettings stored={stored} smtpActions={smtpActions} />} />
          </Tabs.Panel>
        )}
        {active === 'other' && (
          <Tabs.Panel value="other" pt="md">
            <WithOptions render={(stored) => <OtherSettings stored={stored} />} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  )
}
