import { Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { Role } from '@one-api/contracts/roles'
import { IconTrash } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { notifySuccess } from '@/lib/notify.ts'
import { forgetUserQueries } from '@/lib/query-client.ts'
import { clearStoredUser, useStoredUser } from '@/lib/user-store.ts'
import { useDeleteSelf } from '../api/delete-self.ts'

/** Deleting one's own account, confirmed by typing one's username. The super admin cannot. */
export function DeleteAccountCard() {
  const { t } = useTranslation()
  const user = useStoredUser()
  const navigate = useNavigate()
  const remove = useDeleteSelf()
  const [opened, dialog] = useDisclosure(false)
  const [typed, setTyped] = useState('')
  const [error, setError] = useState<string | undefined>()
  const isRoot = (user?.role ?? 0) >= Role.Root
  const close = () => {
    dialog.close()
    setTyped('')
    setError(undefined)
  }
  const confirm = () => {
    if (typed.trim() !== user?.username) {
      setError(t('settings.deleteAccountMismatch'))
      return
    }
    remove.mutate(undefined, {
      onSuccess: () => {
        close()
        clearStoredUser()
        forgetUserQueries()
        notifySuccess(t('settings.deleteAccountDone'))
        void navigate('/login')
      },
    })
  }
  const title = t('settings.deleteAccountTitle')
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h4" c="red">
          {title}
        </Title>
        <Text size="sm">{isRoot ? t('settings.deleteAccountRoot') : t('settings.deleteAccountHelp')}</Text>
        <Button
          color="red"
          variant="light"
          w="fit-content"
          leftSection={<IconTrash size={16} />}
          disabled={isRoot}
          onClick={dialog.open}
        >
          {t('settings.deleteAccount')}
        </Button>
      </Stack>
      <Modal
        opened={opened}
        onClose={close}
        title={title}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('settings.deleteAccountWarning')}</Text>
          <TextInput
            label={t('settings.deleteAccountType', { username: user?.username ?? '' })}
            value={typed}
            error={error}
            styles={{
              error: { color: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-3))' },
              input: { color: 'var(--mantine-color-text)' },
            }}
            autoComplete="off"
            data-autofocus
            onChange={(event) => {
              setTyped(event.currentTarget.value)
              setError(undefined)
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={confirm}>
              {t('settings.deleteAccountConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  )
}
