import { Button, Card, Group, Modal, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core'
import type { OptionKey } from '@one-api/contracts'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { notifySuccess } from '@/lib/notify.ts'
import type { OptionValues } from '../api/list-options.ts'
import { useUpdateOptions } from '../api/update-options.ts'
import { optionLabelKey } from './option-field.tsx'

interface OptionSwitchesProps {
  title: string
  description?: string
  keys: readonly OptionKey[]
  stored: OptionValues
  /** Switches whose turning off must be confirmed, with the dialog's message. */
  confirmOff?: Partial<Record<OptionKey, string>>
}

/** Enable-type options ('true' / 'false'), each saved as soon as it is flipped, as one-api does. */
export function OptionSwitches(props: OptionSwitchesProps) {
  const { t } = useTranslation()
  const save = useUpdateOptions()
  const [pending, setPending] = useState<OptionKey | undefined>()
  const [confirming, setConfirming] = useState<OptionKey | undefined>()
  const apply = (key: OptionKey, on: boolean) => {
    setPending(key)
    save.mutate([{ key, value: String(on) }], {
      onSuccess: () => notifySuccess(t('settings.saved')),
      onSettled: () => setPending(undefined),
    })
  }
  const flip = (key: OptionKey, on: boolean) => {
    if (!on && props.confirmOff?.[key]) setConfirming(key)
    else apply(key, on)
  }
  return (
    <Card withBorder padding="lg" component="section" aria-label={props.title}>
      <Stack gap="md">
        <div>
          <Title order={3} size="h4">
            {props.title}
          </Title>
          {props.description && (
            <Text size="sm" mt={4}>
              {props.description}
            </Text>
          )}
        </div>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          {props.keys.map((key) => (
            <Switch
              key={key}
              label={t(optionLabelKey(key))}
              checked={props.stored[key] === 'true'}
              disabled={pending === key}
              onChange={(event) => flip(key, event.currentTarget.checked)}
            />
          ))}
        </SimpleGrid>
      </Stack>
      <Modal
        opened={confirming !== undefined}
        onClose={() => setConfirming(undefined)}
        title={t('settings.confirmTitle')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        centered
      >
        <Text size="sm">{confirming ? props.confirmOff?.[confirming] : ''}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(undefined)}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            onClick={() => {
              if (confirming) apply(confirming, false)
              setConfirming(undefined)
            }}
          >
            {t('settings.confirmTurnOff')}
          </Button>
        </Group>
      </Modal>
    </Card>
  )
}
