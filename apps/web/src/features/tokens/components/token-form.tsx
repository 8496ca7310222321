import { Alert, Button, Group, MultiSelect, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { createTokenInputSchema, splitList, TOKEN_NAME_MAX_LENGTH } from '@one-api/contracts/token'
import { IconInfoCircle } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { copyText } from '@/lib/clipboard.ts'
import { schemaValidator } from '@/lib/form-validation.ts'
import type { TokenPayload } from '../api/tokens.ts'
import { fromInputValue, QUICK_EXPIRIES, quickExpiryValue } from '../lib/expiry.ts'

/** Help texts under the fields in the body colour: Mantine's dimmed grey is below WCAG AA contrast. */
const READABLE_DESCRIPTION = { description: { color: 'var(--mantine-color-text)' } }

export interface TokenFormValues {
  name: string
  models: string[]
  subnet: string
  /** A `datetime-local` value; '' means never. */
  expiry: string
  remain_quota: number | string
  unlimited_quota: boolean
}

/** A new token: no model scope or IP limit, never expires, quota 500,000. */
export const NEW_TOKEN_VALUES: TokenFormValues = {
  name: '',
  models: [],
  subnet: '',
  expiry: '',
  remain_quota: 500_000,
  unlimited_quota: false,
}

/** The API body of the form's values; an unparseable expiry is sent as NaN and refused by the schema. */
export function toTokenPayload(values: TokenFormValues): TokenPayload {
  return {
    name: values.name.trim(),
    remain_quota: Number.parseInt(String(values.remain_quota), 10),
    expired_time: fromInputValue(values.expiry) ?? Number.NaN,
    unlimited_quota: values.unlimited_quota,
    models: values.models.join(','),
    subnet: splitList(values.subnet).join(','),
  }
}

interface TokenFormProps {
  initialValues: TokenFormValues
  /** The models the user may choose from (those of the token are added when missing). */
  models: string[]
  /** The visitor's address for the `{ip}/24` example. */
  exampleIp: string
  submitting: boolean
  onSubmit: (payload: TokenPayload) => void
  onCancel: () => void
}

/** Name, model scope, IP restriction, expiry and quota of a token. */
export function TokenForm(props: TokenFormProps) {
  const { t } = useTranslation()
  const schemaErrors = schemaValidator(createTokenInputSchema, toTokenPayload, {
    fieldOf: { expired_time: 'expiry' },
    fallbackField: 'name',
  })
  const form = useForm<TokenFormValues>({
    mode: 'controlled',
    initialValues: props.initialValues,
    validate: (values) => {
      if (fromInputValue(values.expiry) === undefined) return { expiry: t('tokens.form.expiryFormatError') }
      return schemaErrors(values)
    },
  })
  const values = form.getValues()
  const modelChoices = [...new Set([...props.models, ...values.models])]
  return (
    <form onSubmit={form.onSubmit((formValues) => props.onSubmit(toTokenPayload(formValues)))} noValidate>
      <Stack gap="md" maw={720}>
        <TextInput
          label={t('tokens.form.name')}
          placeholder={t('tokens.form.namePlaceholder')}
          maxLength={TOKEN_NAME_MAX_LENGTH}
          withAsterisk
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <MultiSelect
          label={t('tokens.form.models')}
          styles={READABLE_DESCRIPTION}
          description={t('tokens.form.modelsHelp')}
          placeholder={values.models.length ? undefined : t('tokens.form.modelsPlaceholder')}
          data={modelChoices}
          searchable
          clearable
          nothingFoundMessage={t('tokens.form.noModels')}
          key={form.key('models')}
          {...form.getInputProps('models')}
        />
        {values.models.length > 0 && (
          <Group gap={6} aria-label={t('tokens.form.modelsChosen')}>
            {values.models.map((model) => (
              <Button
                key={model}
                size="compact-xs"
                radius="xl"
                variant="light"
                title={t('tokens.form.copyModel')}
                onClick={() => void copyText(model)}
              >
                {model}
              </Button>
            ))}
          </Group>
        )}
        <TextInput
          label={t('tokens.form.subnet')}
          styles={READABLE_DESCRIPTION}
          description={t('tokens.form.subnetHelp', { example: `${props.exampleIp}/24` })}
          placeholder={`${props.exampleIp}/24`}
          key={form.key('subnet')}
          {...form.getInputProps('subnet')}
        />
        <Stack gap={6}>
          <TextInput
            type="datetime-local"
            step={1}
            label={t('tokens.form.expiry')}
            styles={READABLE_DESCRIPTION}
            description={t('tokens.form.expiryHelp')}
            key={form.key('expiry')}
            {...form.getInputProps('expiry')}
          />
          <Group gap="xs">
            {QUICK_EXPIRIES.map((choice) => (
              <Button
                key={choice.label}
                size="xs"
                variant="light"
                onClick={() => form.setFieldValue('expiry', quickExpiryValue(choice.seconds))}
              >
                {t(`tokens.form.quick.${choice.label}`)}
              </Button>
            ))}
          </Group>
        </Stack>
        <Alert color="blue" variant="light" icon={<IconInfoCircle />}>
          <Text size="sm">{t('tokens.form.quotaNote')}</Text>
        </Alert>
        <NumberInput
          label={t('tokens.form.quota')}
          min={0}
          allowDecimal={false}
          thousandSeparator=","
          disabled={values.unlimited_quota}
          key={form.key('remain_quota')}
          {...form.getInputProps('remain_quota')}
        />
        <Switch
          label={t('tokens.form.unlimited')}
          key={form.key('unlimited_quota')}
          {...form.getInputProps('unlimited_quota', { type: 'checkbox' })}
        />
        <Group>
          <Button type="submit" loading={props.submitting}>
            {t('tokens.form.submit')}
          </Button>
          <Button variant="default" onClick={props.onCancel}>
            {t('tokens.form.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
