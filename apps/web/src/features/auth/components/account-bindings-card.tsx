import { Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { notifySuccess } from '@/lib/notify.ts'
import { useStatus } from '@/lib/status.ts'
import { bindWeChat, redirectToGitHub, redirectToLark, redirectToOidc } from '../api/oauth.ts'
import { boundAccountsQuery, selfQueryPrefix } from '../api/self.ts'
import { BindEmailModal } from './bind-email-modal.tsx'
import { enabledProviders, ProviderIcon } from './provider-buttons.tsx'
import { WeChatCodeModal } from './wechat-code-modal.tsx'

interface BindingRowProps {
  icon: ReactNode
  name: string
  value: string
  /** The bind action; absent when the administrator has not enabled the provider. */
  action?: ReactNode
}

function BindingRow({ icon, name, value, action }: BindingRowProps) {
  const { t } = useTranslation()
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap" miw={0}>
        {icon}
        <Stack gap={0} miw={0}>
          <Text fw={500}>{name}</Text>
          {value ? (
            <Text size="sm" truncate="end">
              {value}
            </Text>
          ) : (
            <Badge variant="light" color="gray" w="fit-content">
              {t('account.notBound')}
            </Badge>
          )}
        </Stack>
      </Group>
      {action}
    </Group>
  )
}

function RedirectAction({
  name,
  bound,
  start,
}: {
  name: string
  bound: boolean
  start: () => Promise<void>
}) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const label = bound ? t('account.rebind') : t('account.bind')
  return (
    <Button
      variant="light"
      loading={busy}
      aria-label={`${label}: ${name}`}
      onClick={() => {
        setBusy(true)
        start().catch(() => setBusy(false))
      }}
    >
      {label}
    </Button>
  )
}

/** Personal settings: which email and accounts are bound, and binding them. */
export function AccountBindingsCard() {
  const { t } = useTranslation()
  const status = useStatus()
  const self = useQuery(boundAccountsQuery())
  const queryClient = useQueryClient()
  const [emailOpened, emailModal] = useDisclosure(false)
  const [wechatOpened, wechatModal] = useDisclosure(false)
  const enabled = enabledProviders(status)
  const user = self.data
  const refresh = () => queryClient.invalidateQueries({ queryKey: selfQueryPrefix })
  const action = (label: string, onClick: () => void, name: string) => (
    <Button variant="light" onClick={onClick} aria-label={`${label}: ${name}`}>
      {label}
    </Button>
  )
  return (
    <Card withBorder padding="lg">
      <Title order={4} mb="md">
        {t('account.title')}
      </Title>
      {user ? (
        <Stack gap="md">
          <BindingRow
            icon={<ProviderIcon provider="email" />}
            name={t('account.email')}
            value={user.email}
            action={action(
              user.email ? t('account.rebind') : t('account.bind'),
              emailModal.open,
              t('account.email'),
            )}
          />
          <BindingRow
            icon={<ProviderIcon provider="wechat" />}
            name={t('account.wechat')}
            value={user.wechat_id ? t('account.bound') : ''}
            action={
              enabled.wechat ? action(t('account.bind'), wechatModal.open, t('account.wechat')) : undefined
            }
          />
          <BindingRow
            icon={<ProviderIcon provider="github" />}
            name="GitHub"
            value={user.github_id}
            action={
              enabled.github ? (
                <RedirectAction
                  name="GitHub"
                  bound={Boolean(user.github_id)}
                  start={() => redirectToGitHub(status)}
                />
              ) : undefined
            }
          />
          {(enabled.lark || user.lark_id) && (
            <BindingRow
              icon={<ProviderIcon provider="lark" />}
              name={t('account.lark')}
              value={user.lark_id ? t('account.bound') : ''}
              action={
                enabled.lark ? (
                  <RedirectAction
                    name={t('account.lark')}
                    bound={Boolean(user.lark_id)}
                    start={() => redirectToLark(status)}
                  />
                ) : undefined
              }
            />
          )}
          {(enabled.oidc || user.oidc_id) && (
            <BindingRow
              icon={<ProviderIcon provider="oidc" />}
              name="OIDC"
              value={user.oidc_id ? t('account.bound') : ''}
              action={
                enabled.oidc ? (
                  <RedirectAction
                    name="OIDC"
                    bound={Boolean(user.oidc_id)}
                    start={() => redirectToOidc(status)}
                  />
                ) : undefined
              }
            />
          )}
        </Stack>
      ) : (
        <Skeleton h={160} visible={self.isPending} />
      )}
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
    </Card>
  )
}
