import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { type UseFormReturnType, useForm } from '@mantine/form'
import { type OptionKey, optionValueSchema } from '@one-api/contracts'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { notifyInfo, notifySuccess } from '@/lib/notify.ts'
import type { OptionValues } from '../api/list-options.ts'
import { useUpdateOptions } from '../api/update-options.ts'
import { changedOptions, formValuesOf, type OptionFormValues } from '../lib/option-changes.ts'
import { OptionField, type OptionFieldProps } from './option-field.tsx'

interface OptionSectionProps {
  title: string
  description?: string
  keys: readonly OptionKey[]
  stored: OptionValues
  /** Two columns on wide screens for short fields; long texts take one. */
  columns?: 1 | 2
  /** Inputs other than the kind's default, by option. */
  renderers?: Partial<Record<OptionKey, OptionFieldProps['render']>>
  /** Shown under the fields: the place for a section's extra actions. */
  extra?: ReactNode
  /** Re-render on each keystroke: for a body that shows what is typed elsewhere (the price view). */
  controlled?: boolean
  /** Replaces the grid of fields (the ratio tables with their price view). */
  body?: (form: UseFormReturnType<OptionFormValues>) => ReactNode
}

/** Checks each field with the server's rule for that option, so the error sits on the field. */
function validateOptions(keys: readonly OptionKey[]) {
  return (values: OptionFormValues) => {
    const errors: Record<string, string> = {}
    for (const key of keys) {
      const result = optionValueSchema(key).safeParse(values[key] ?? '')
      if (!result.success) errors[key] = result.error.issues[0]?.message ?? key
    }
    return errors
  }
}

/**
 * A card of options saved together by its button: only the changed options are sent (secrets only
 * when typed), each checked as the server checks it first.
 */
export function OptionSection(props: OptionSectionProps) {
  const { t } = useTranslation()
  const save = useUpdateOptions()
  const form = useForm<OptionFormValues>({
    mode: props.controlled ? 'controlled' : 'uncontrolled',
    initialValues: formValuesOf(props.keys, props.stored),
    validate: validateOptions(props.keys),
  })
  const submit = form.onSubmit((values) => {
    const changes = changedOptions(props.keys, props.stored, values)
    if (changes.length === 0) {
      notifyInfo(t('settings.nothingChanged'))
      return
    }
    save.mutate(changes, {
      onSuccess: () => {
        notifySuccess(t('settings.saved'))
        const saved = Object.fromEntries(changes.map((change) => [change.key, change.value]))
        form.setInitialValues(formValuesOf(props.keys, { ...props.stored, ...saved }))
        form.reset()
      },
    })
  })
  return (
    <Card withBorder padding="lg" component="section" aria-label={props.title}>
      <form onSubmit={submit} noValidate>
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
          {props.body ? (
            props.body(form)
          ) : (
            <SimpleGrid cols={{ base: 1, sm: props.columns ?? 2 }} spacing="md">
              {props.keys.map((key) => (
                <OptionField key={key} optionKey={key} form={form} render={props.renderers?.[key]} />
              ))}
            </SimpleGrid>
          )}
          {props.extra}
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  )
}
