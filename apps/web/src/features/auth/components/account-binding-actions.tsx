import { Button, Group } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { notifySuccess } from '@/lib/notify.ts'
import { selfQueryKey } from '@/lib/self-query.ts'
import { useStatus } from '@/lib/status.ts'
import { bindWeChat, type RedirectProvider, redirectTo } from '../api/oauth.ts'
import type { BoundAccounts } from '../api/self.ts'
import { BindEmailModal } from './bind-email-modal.tsx'
import { enabledProviders, ProviderIcon } from './provider-buttons.tsx'
import { WeChatCodeModal } from './wechat-code-modal.tsx'

/** Binding through the provider's page: its callback binds the account to the signed-in user. */
function RedirectBindButton({ provider, label }: { provider: RedirectProvider; label: string }) {
  const status = useStatus()
  const [busy, setBusy] = useState(false)
  return (
    <Button
      variant="light"
      loading={busy}
      leftSection={<ProviderIcon provider={provider} />}
      onClick={() => {
        setBusy(true)
        redirectTo(provider, status).catch(() => setBusy(false))
      }}
    >
      {label}
    </Button>
  )
}

/**
 * The bind buttons of the personal settings: email (a mailed code, 30 s before another), WeChat
 * (the official account's code, valid three minutes), and GitHub, Lark and OIDC when enabled.
 */
export function AccountBindingActions({ user }: { user: Partial<BoundAccounts> }) {
  const { t } = useTranslation()
  const status = useStatus()
  const queryClient = useQueryClient()
  const [emailOpened, emailModal] = useDisclosure(false)
  const [wechatOpened, wechatModal] = useDisclosure(false)
  const enabled = enabledProviders(status)
  const refresh = () => queryClient.invalidateQueries({ queryKey: selfQueryKey })
  const verb = (bound: string | undefined) => (bound ? t('account.rebind') : t('account.bind'))
  return (
    <Group gap="xs">
      <Button variant="light" leftSection={<ProviderIcon provider="email" />} onClick={emailModal.open}>
        {`${verb(user.email)}: ${t('account.email')}`}
      </Button>
      {enabled.wechat && (
        <Button variant="light" leftSection={<ProviderIcon provider="wechat" />} onClick={wechatModal.open}>
          {`${verb(user.wechat_id)}: ${t('account.wechat')}`}
        </Button>
      )}
      {enabled.github && <RedirectBindButton provider="github" label={`${verb(user.github_id)}: GitHub`} />}
      {enabled.lark && (
        <RedirectBindButton provider="lark" label={`${verb(user.lark_id)}: ${t('account.lark')}`} />
      )}
      {enabled.oidc && <RedirectBindButton provider="oidc" label={`${verb(user.oidc_id)}: OIDC`} />}
      <BindEmailModal
        opened={emailOpened}
        onClose={emailModal.close}
        onBound={() => {
          emailModal.close()
          void refresh()
        }}
      />
      <WeChatCodeModal
        opened={wechatOpened}
        title={t('account.bindWeChat')}
        submitLabel={t('account.bind')}
        onClose={wechatModal.close}
        onSubmit={async (code) => {
          await bindWeChat(code)
          notifySuccess(t('oauth.bound'))
          wechatModal.close()
          await refresh()
        }}
      />
    </Group>
  )
}
