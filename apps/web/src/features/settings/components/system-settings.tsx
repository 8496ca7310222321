import { Stack } from '@mantine/core'
import type { OptionKey } from '@one-api/contracts'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { OptionValues } from '../api/list-options.ts'
import { EmailDomainWhitelist } from './email-domain-whitelist.tsx'
import { OptionSection } from './option-section.tsx'
import { OptionSwitches } from './option-switches.tsx'

const SIGN_IN_SWITCHES: OptionKey[] = [
  'PasswordLoginEnabled',
  'PasswordRegisterEnabled',
  'EmailVerificationEnabled',
  'RegisterEnabled',
  'GitHubOAuthEnabled',
  'OidcEnabled',
  'WeChatAuthEnabled',
  'TurnstileCheckEnabled',
  'EmailDomainRestrictionEnabled',
  'FreeKeyModeEnabled',
]

interface SystemSettingsProps {
  stored: OptionValues
  /**
   * Extra actions under the SMTP fields. The place for a "send test mail" button of the sign-in
   * feature: the app passes it in through the settings page.
   */
  smtpActions?: ReactNode
}

/** The super administrator's sign-in, OAuth, WeChat, message pusher, Turnstile and SMTP options. */
export function SystemSettings({ stored, smtpActions }: SystemSettingsProps) {
  const { t } = useTranslation()
  return (
    <Stack gap="md">
      <OptionSection
        title={t('settings.sections.general')}
        keys={['ServerAddress']}
        stored={stored}
        columns={1}
      />
      <OptionSwitches
        title={t('settings.sections.signIn')}
        description={t('settings.signInHelp')}
        keys={SIGN_IN_SWITCHES}
        stored={stored}
        confirmOff={{ PasswordLoginEnabled: t('settings.confirmPasswordLoginOff') }}
      />
      <OptionSection
        title={t('settings.sections.github')}
        description={t('settings.githubHelp', {
          callback: `${stored.ServerAddress || window.location.origin}/oauth/github`,
        })}
        keys={['GitHubClientId', 'GitHubClientSecret', 'FreeKeyPaidServiceLink']}
        stored={stored}
      />
      <OptionSection
        title={t('settings.sections.lark')}
        description={t('settings.larkHelp', {
          callback: `${stored.ServerAddress || window.location.origin}/oauth/lark`,
        })}
        keys={['LarkClientId', 'LarkClientSecret']}
        stored={stored}
      />
      <OptionSection
        title={t('settings.sections.oidc')}
        keys={[
          'OidcClientId',
          'OidcClientSecret',
          'OidcWellKnown',
          'OidcAuthorizationEndpoint',
          'OidcTokenEndpoint',
          'OidcUserinfoEndpoint',
        ]}
        stored={stored}
      />
      <OptionSection
        title={t('settings.sections.wechat')}
        description={t('settings.wechatHelp')}
        keys={['WeChatServerAddress', 'WeChatServerToken', 'WeChatAccountQRCodeImageURL']}
        stored={stored}
      />
      <OptionSection
        title={t('settings.sections.messagePusher')}
        description={t('settings.messagePusherHelp')}
        keys={['MessagePusherAddress', 'MessagePusherToken']}
        stored={stored}
      />
      <OptionSection
        title={t('settings.sections.turnstile')}
        description={t('settings.turnstileHelp')}
        keys={['TurnstileSiteKey', 'TurnstileSecretKey']}
        stored={stored}
      />
      <EmailDomainWhitelist stored={stored} />
      <OptionSection
        title={t('settings.sections.smtp')}
        description={t('settings.smtpHelp')}
        keys={['SMTPServer', 'SMTPPort', 'SMTPAccount', 'SMTPFrom', 'SMTPToken']}
        stored={stored}
        extra={smtpActions}
      />
    </Stack>
  )
}
