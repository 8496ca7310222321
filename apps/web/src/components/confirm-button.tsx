import { Button, type ButtonProps, Group, Modal, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

interface ConfirmButtonProps extends Omit<ButtonProps, 'onClick'> {
  children: ReactNode
  /** The question of the dialog. */
  title: string
  message: string
  confirmLabel: string
  onConfirm: () => Promise<unknown> | unknown
  'aria-label'?: string
}

/** A button that acts only after the person confirms in a dialog (deletions). */
export function ConfirmButton({
  title,
  message,
  confirmLabel,
  onConfirm,
  children,
  ...button
}: ConfirmButtonProps) {
  const { t } = useTranslation()
  const [opened, dialog] = useDisclosure(false)
  return (
    <>
      <Button {...button} onClick={dialog.open}>
        {children}
      </Button>
      <Modal opened={opened} onClose={dialog.close} title={title} centered>
        <Text size="sm">{message}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={dialog.close}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            onClick={async () => {
              dialog.close()
              await onConfirm()
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Modal>
    </>
  )
}
