import { Alert, Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import {
  type CreateRedemptionInput,
  createRedemptionInputSchema,
  DEFAULT_REDEMPTION_QUOTA,
  MAX_REDEMPTION_COUNT,
  type UpdateRedemptionInput,
  updateRedemptionInputSchema,
} from '@one-api/contracts/redemption'
import { IconInfoCircle } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { schemaValidator } from '@/lib/form-validation.ts'

/** Help texts under the fields in the body colour: Mantine's dimmed grey is below WCAG AA contrast. */
const READABLE_DESCRIPTION = { description: { color: 'var(--mantine-color-text)' } }

/** The name a new code may have (the edit form accepts the longer names older versions stored). */
const NEW_NAME_MAX_LENGTH = 20

export interface RedemptionFormValues {
  name: string
  quota: number | string
  count: number | string
}

/** A new batch: one code of 100,000 quota. */
export const NEW_REDEMPTION_VALUES: RedemptionFormValues = {
  name: '',
  quota: DEFAULT_REDEMPTION_QUOTA,
  count: 1,
}

/** Whole numbers as the API takes them; what does not parse is sent as NaN and refused by the schema. */
const integer = (value: number | string) => Number.parseInt(String(value), 10)

export function toCreatePayload(values: RedemptionFormValues): CreateRedemptionInput {
  return { name: values.name.trim(), quota: integer(values.quota), count: integer(values.count) }
}

export function toUpdatePayload(id: number, values: RedemptionFormValues): UpdateRedemptionInput {
  return { id, name: values.name.trim(), quota: integer(values.quota) }
}

type RedemptionFormProps = {
  initialValues: RedemptionFormValues
  /** The quota as the console shows it, for the hint under the field. */
  renderQuota: (quota: number) => string
  submitting: boolean
  onCancel: () => void
} & (
  | { mode: 'create'; onSubmit: (payload: CreateRedemptionInput) => void }
  /** `used`: the code was redeemed, so its quota is history and cannot change. */
  | { mode: 'edit'; id: number; used: boolean; onSubmit: (payload: UpdateRedemptionInput) => void }
)

function useRedemptionForm(props: RedemptionFormProps) {
  const validate =
    props.mode === 'create'
      ? schemaValidator(createRedemptionInputSchema, toCreatePayload, { fallbackField: 'name' })
      : schemaValidator(
          updateRedemptionInputSchema,
          (values: RedemptionFormValues) => toUpdatePayload(props.id, values),
          { fallbackField: 'name' },
        )
  return useForm<RedemptionFormValues>({ mode: 'controlled', initialValues: props.initialValues, validate })
}

/** Name and quota of redemption codes, and on creation how many to make. */
export function RedemptionForm(props: RedemptionFormProps) {
  const { t } = useTranslation()
  const form = useRedemptionForm(props)
  const submit = form.onSubmit((values) => {
    if (props.mode === 'create') props.onSubmit(toCreatePayload(values))
    else props.onSubmit(toUpdatePayload(props.id, values))
  })
  const creating = props.mode === 'create'
  const used = props.mode === 'edit' && props.used
  const quota = integer(form.getValues().quota)
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={560}>
        <TextInput
          label={t('redemptions.form.name')}
          placeholder={t('redemptions.form.namePlaceholder')}
          maxLength={creating ? NEW_NAME_MAX_LENGTH : undefined}
          withAsterisk
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <NumberInput
          label={t('redemptions.form.quota')}
          description={
            Number.isFinite(quota)
              ? t('redemptions.form.quotaHint', { value: props.renderQuota(quota) })
              : undefined
          }
          styles={READABLE_DESCRIPTION}
          min={0}
          allowDecimal={false}
          thousandSeparator=","
          disabled={used}
          key={form.key('quota')}
          {...form.getInputProps('quota')}
        />
        {used && (
          <Alert color="gray" variant="light" icon={<IconInfoCircle />}>
            <Text size="sm">{t('redemptions.form.usedNote')}</Text>
          </Alert>
        )}
        {creating && (
          <NumberInput
            label={t('redemptions.form.count')}
            description={t('redemptions.form.countHelp', { max: MAX_REDEMPTION_COUNT })}
            styles={READABLE_DESCRIPTION}
            min={1}
            max={MAX_REDEMPTION_COUNT}
            allowDecimal={false}
            key={form.key('count')}
            {...form.getInputProps('count')}
          />
        )}
        <Group>
          <Button type="submit" loading={props.submitting}>
            {t('redemptions.form.submit')}
          </Button>
          <Button variant="default" onClick={props.onCancel}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
