import {
  Anchor,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core'
import { useForm } from '@mantine/form'
import { channelSubmitSchema } from '@one-api/contracts/channel'
import { CHANNEL_TYPE_ORDER, ChannelType, channelTypeInfo } from '@one-api/contracts/channel-types'
import { useTranslation } from 'react-i18next'
import { FormActions } from '@/components/form-actions.tsx'
import { schemaValidator } from '@/lib/form-validation.ts'
import { useGroups } from '../api/model-options.ts'
import type { ChannelPayload } from '../api/save-channel.ts'
import { channelTypeName } from '../lib/channel-display.ts'
import { type ChannelFormValues, MODEL_MAPPING_EXAMPLE, toPayload } from '../lib/channel-form-values.ts'
import { ChannelModelsField } from './channel-models-field.tsx'
import { ChannelTypeFields, OWN_BASE_URL_TYPES } from './channel-type-fields.tsx'

interface ChannelFormProps {
  initialValues: ChannelFormValues
  creating: boolean
  submitting: boolean
  onSubmit: (payload: ChannelPayload) => void
  onCancel: () => void
}

/** Types whose key is composed from their own fields (AWS: AK|SK|region; Vertex AI: region|project|JSON). */
const COMPOSED_KEY_TYPES: readonly number[] = [ChannelType.aws, ChannelType.vertexAi]

/** Every field of a channel, with the server's own rules and messages checked before sending. */
export function ChannelForm({ initialValues, creating, submitting, onSubmit, onCancel }: ChannelFormProps) {
  const { t, i18n } = useTranslation()
  const groups = useGroups()
  const form = useForm<ChannelFormValues>({
    initialValues,
    validate: schemaValidator(
      channelSubmitSchema(creating),
      (values: ChannelFormValues) => toPayload(values, creating),
      {
        fieldOf: { group: 'groups' },
        fallbackField: 'name',
      },
    ),
  })
  const type = Number(form.values.type)
  const keyHint = channelTypeInfo(type)?.keyHint
  const typeOptions = CHANNEL_TYPE_ORDER.map((id) => ({
    value: String(id),
    label: channelTypeName(id, i18n.language),
  }))
  const batch = creating && form.values.batch
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(toPayload(values, creating)))} noValidate>
      <Stack gap="md" maw={760}>
        <Select
          label={t('channels.form.type')}
          data={typeOptions}
          searchable
          allowDeselect={false}
          nothingFoundMessage={t('channels.noMatch')}
          description={channelTypeInfo(type)?.tip}
          {...form.getInputProps('type')}
        />
        <ChannelTypeFields form={form} creating={creating} />
        <TextInput
          label={t('channels.form.name')}
          placeholder={t('channels.form.namePlaceholder')}
          required={creating}
          {...form.getInputProps('name')}
        />
        <TagsInput
          label={t('channels.form.groups')}
          description={t('channels.form.groupsHint')}
          data={groups.data ?? []}
          acceptValueOnBlur
          {...form.getInputProps('groups')}
        />
        {type !== ChannelType.proxy && <ChannelModelsField form={form} />}
        <Stack gap={4}>
          <Textarea
            label={t('channels.form.modelMapping')}
            description={t('channels.form.modelMappingHint')}
            placeholder={MODEL_MAPPING_EXAMPLE}
            autosize
            minRows={4}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('model_mapping')}
          />
          <Anchor
            component="button"
            type="button"
            size="sm"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => form.setFieldValue('model_mapping', MODEL_MAPPING_EXAMPLE)}
          >
            {t('channels.form.modelMappingExample')}
          </Anchor>
        </Stack>
        {!COMPOSED_KEY_TYPES.includes(type) &&
          (batch ? (
            <Textarea
              label={t('channels.form.key')}
              placeholder={keyHint ?? t('channels.form.keyBatchPlaceholder')}
              description={t('channels.form.keyBatchPlaceholder')}
              autosize
              minRows={4}
              required
              {...form.getInputProps('key')}
            />
          ) : (
            <TextInput
              label={t('channels.form.key')}
              placeholder={
                creating
                  ? (keyHint ?? t('channels.form.keyPlaceholder'))
                  : t('channels.form.keyEditPlaceholder')
              }
              description={keyHint ? t('channels.form.keyHint', { hint: keyHint }) : undefined}
              required={creating}
              autoComplete="off"
              {...form.getInputProps('key')}
            />
          ))}
        {creating && !COMPOSED_KEY_TYPES.includes(type) && (
          <Checkbox label={t('channels.form.batch')} {...form.getInputProps('batch', { type: 'checkbox' })} />
        )}
        {!OWN_BASE_URL_TYPES.includes(type) && (
          <TextInput
            label={t('channels.form.baseUrl')}
            placeholder={t('channels.form.baseUrlPlaceholder')}
            {...form.getInputProps('base_url')}
          />
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NumberInput
            label={t('channels.form.priority')}
            description={t('channels.form.priorityHint')}
            allowDecimal={false}
            {...form.getInputProps('priority')}
          />
          <NumberInput
            label={t('channels.form.weight')}
            description={t('channels.form.weightHint')}
            allowDecimal={false}
            {...form.getInputProps('weight')}
          />
        </SimpleGrid>
        <FormActions
          submitLabel={creating ? t('channels.form.create') : t('common.save')}
          submitting={submitting}
          onCancel={onCancel}
        />
      </Stack>
    </form>
  )
}
