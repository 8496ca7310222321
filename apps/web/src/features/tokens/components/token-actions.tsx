import { ActionIcon, Button, Group, Menu, Modal, Text } from '@mantine/core'
import { TokenStatus } from '@one-api/contracts'
import { type TokenView, tokenKeyForUse } from '@one-api/contracts/token'
import { IconChevronDown, IconCopy, IconMessageCircle } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { copyText } from '@/lib/clipboard.ts'
import { useDeleteToken, useSetTokenStatus } from '../api/tokens.ts'
import { CLIENT_APPS, type ClientApp, clientAppLink } from '../lib/token-links.ts'

interface TokenActionsProps {
  token: TokenView
  serverAddress: string
  chatLink: string
  /** Called with the value the browser refused to copy, to show it for copying by hand. */
  onCopyFailed: (value: string) => void
}

/** Copy (the key, or a client app's link), chat, enable/disable, edit and delete for one token. */
export function TokenActions({ token, serverAddress, chatLink, onCopyFailed }: TokenActionsProps) {
  const { t } = useTranslation()
  const setStatus = useSetTokenStatus()
  const remove = useDeleteToken()
  const [confirming, setConfirming] = useState(false)
  const link = (app: ClientApp) => clientAppLink(app, token.key, serverAddress, chatLink)
  const copy = async (value: string) => {
    if (!(await copyText(value))) onCopyFailed(value)
  }
  const enabled = token.status === TokenStatus.enabled
  return (
    <>
      <Group gap={0} wrap="nowrap">
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconCopy size={14} />}
          style={{ borderTopRightRadius: 0, borderBottomRightRadius: 0 }}
          aria-label={t('tokens.copyKeyOf', { name: token.name })}
          onClick={() => void copy(tokenKeyForUse(token.key))}
        >
          {t('tokens.copy')}
        </Button>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon
              size={26}
              variant="light"
              style={{ borderTopLeftRadius: 0, borderBottomLeftRadius: 0 }}
              aria-label={t('tokens.copyAppLinkOf', { name: token.name })}
            >
              <IconChevronDown size={14} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {CLIENT_APPS.map((app) => (
              <Menu.Item key={app} onClick={() => void copy(link(app))}>
                {t(`tokens.apps.${app}`)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            size="compact-sm"
            variant="light"
            color="teal"
            leftSection={<IconMessageCircle size={14} />}
            aria-label={t('tokens.chatWith', { name: token.name })}
          >
            {t('tokens.chat')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {CLIENT_APPS.map((app) => (
            <Menu.Item key={app} component="a" href={link(app)} target="_blank" rel="noreferrer">
              {t(`tokens.apps.${app}`)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Button
        size="compact-sm"
        variant="light"
        color={enabled ? 'orange' : 'green'}
        loading={setStatus.isPending}
        aria-label={t(enabled ? 'tokens.disableOf' : 'tokens.enableOf', { name: token.name })}
        onClick={() => setStatus.mutate({ id: token.id, status: enabled ? 2 : 1 })}
      >
        {t(enabled ? 'tokens.disable' : 'tokens.enable')}
      </Button>
      <Button
        size="compact-sm"
        variant="light"
        component={Link}
        to={`/token/edit/${token.id}`}
        aria-label={t('tokens.editOf', { name: token.name })}
      >
        {t('tokens.edit')}
      </Button>
      <Button
        size="compact-sm"
        variant="light"
        color="red"
        aria-label={t('tokens.deleteOf', { name: token.name })}
        onClick={() => setConfirming(true)}
      >
        {t('tokens.delete')}
      </Button>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('tokens.deleteTitle')}
        centered
      >
        <Text size="sm">{t('tokens.deleteConfirm', { name: token.name })}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t('tokens.form.cancel')}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => remove.mutate(token.id, { onSuccess: () => setConfirming(false) })}
          >
            {t('tokens.delete')}
          </Button>
        </Group>
      </Modal>
    </>
  )
}
