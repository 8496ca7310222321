import { ActionIcon } from '@mantine/core'
import { IconBrandGithub, IconBrandWechat, IconFeather, IconId, IconMail } from '@tabler/icons-react'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ConsoleStatus } from '@/lib/status.ts'
import { type RedirectProvider, redirectTo } from '../api/oauth.ts'

/** The providers the administrator enabled, from /api/status. */
export function enabledProviders(status: Partial<ConsoleStatus>) {
  return {
    github: status.github_oauth === true,
    lark: Boolean(status.lark_client_id),
    oidc: status.oidc === true,
    wechat: status.wechat_login === true,
  }
}

export function ProviderIcon({ provider }: { provider: RedirectProvider | 'wechat' | 'email' }): ReactNode {
  if (provider === 'email') return <IconMail />
  if (provider === 'github') return <IconBrandGithub />
  if (provider === 'lark') return <IconFeather />
  if (provider === 'wechat') return <IconBrandWechat />
  return <IconId />
}

function RoundButton({
  label,
  busy,
  onClick,
  children,
}: {
  label: string
  busy?: boolean
  onClick: () => void
  children: ReactNode
}) {
  // A `title`, not a Tooltip: the sign-in page loads no positioning code (first-load budget).
  return (
    <ActionIcon
      variant="default"
      size="xl"
      radius="xl"
      aria-label={label}
      title={label}
      loading={busy}
      onClick={onClick}
    >
      {children}
    </ActionIcon>
  )
}

/** A round icon button that sends the person to the provider's page (sign-in, or binding when signed in). */
export function RedirectButton({
  provider,
  status,
  label,
}: {
  provider: RedirectProvider
  status: Partial<ConsoleStatus>
  label: string
}) {
  const [busy, setBusy] = useState(false)
  return (
    <RoundButton
      label={label}
      busy={busy}
      onClick={() => {
        setBusy(true)
        redirectTo(provider, status).catch(() => setBusy(false))
      }}
    >
      <ProviderIcon provider={provider} />
    </RoundButton>
  )
}

export function WeChatButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation()
  return (
    <RoundButton label={t('auth.signInWithWeChat')} onClick={onClick}>
      <ProviderIcon provider="wechat" />
    </RoundButton>
  )
}
