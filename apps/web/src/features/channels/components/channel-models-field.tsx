import { Button, Group, Stack, TagsInput } from '@mantine/core'
import type { UseFormReturnType } from '@mantine/form'
import { useTranslation } from 'react-i18next'
import { useAllModels, useRelatedModels } from '../api/model-options.ts'
import type { ChannelFormValues } from '../lib/channel-form-values.ts'

type Form = UseFormReturnType<ChannelFormValues>

const merge = (current: string[], added: readonly string[]) => [...new Set([...current, ...added])]

/** Models picked from the catalogue or typed (Enter adds a custom name); fill related / all, clear all. */
export function ChannelModelsField({ form }: { form: Form }) {
  const { t } = useTranslation()
  const related = useRelatedModels()
  const all = useAllModels()
  const relatedModels = related.data?.[form.values.type] ?? []
  return (
    <Stack gap={6}>
      <TagsInput
        label={t('channels.form.models')}
        placeholder={t('channels.form.customModelPlaceholder')}
        data={all.data ?? []}
        limit={50}
        clearable
        required
        splitChars={[',']}
        acceptValueOnBlur
        {...form.getInputProps('models')}
      />
      <Group gap="xs">
        <Button
          size="xs"
          variant="light"
          onClick={() => form.setFieldValue('models', merge(form.values.models, relatedModels))}
        >
          {t('channels.form.fillRelated')}
        </Button>
        <Button
          size="xs"
          variant="light"
          onClick={() => form.setFieldValue('models', merge(form.values.models, all.data ?? []))}
        >
          {t('channels.form.fillAll')}
        </Button>
        <Button size="xs" variant="light" color="red" onClick={() => form.setFieldValue('models', [])}>
          {t('channels.form.clearAll')}
        </Button>
      </Group>
    </Stack>
  )
}
