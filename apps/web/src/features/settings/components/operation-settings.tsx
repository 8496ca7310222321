import { Stack } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import type { OptionValues } from '../api/list-options.ts'
import { LogCleanup } from './log-cleanup.tsx'
import { OptionSection } from './option-section.tsx'
import { OptionSwitches } from './option-switches.tsx'
import { RatioSection } from './ratio-section.tsx'

/** Quotas, links, channel automation, display switches, the price tables and log clean-up. */
export function OperationSettings({ stored }: { stored: OptionValues }) {
  const { t } = useTranslation()
  return (
    <Stack gap="md">
      <OptionSection
        title={t('settings.sections.quota')}
        description={t('settings.quotaHelp')}
        keys={[
          'QuotaForNewUser',
          'QuotaForInviter',
          'QuotaForInvitee',
          'PreConsumedQuota',
          'QuotaRemindThreshold',
          'QuotaPerUnit',
          'TopUpLink',
          'ChatLink',
        ]}
        stored={stored}
      />
      <OptionSection
        title={t('settings.sections.channels')}
        description={t('settings.channelsHelp')}
        keys={['RetryTimes', 'ChannelDisableThreshold']}
        stored={stored}
      />
      <OptionSwitches
        title={t('settings.sections.switches')}
        keys={[
          'AutomaticDisableChannelEnabled',
          'AutomaticEnableChannelEnabled',
          'LogConsumeEnabled',
          'DisplayInCurrencyEnabled',
          'DisplayTokenStatEnabled',
          'ApproximateTokenEnabled',
        ]}
        stored={stored}
      />
      <RatioSection stored={stored} />
      <LogCleanup />
    </Stack>
  )
}
