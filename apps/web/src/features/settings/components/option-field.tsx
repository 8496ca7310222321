import { JsonInput, PasswordInput, TextInput } from '@mantine/core'
import type { UseFormReturnType } from '@mantine/form'
import { OPTION_DEFINITIONS, type OptionKey, RATIO_OPTION_LABELS, ratioJsonProblem } from '@one-api/contracts'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { TranslationKey } from '@/i18n/i18n.ts'
import type { OptionFormValues } from '../lib/option-changes.ts'

/** Help texts under fields in the body colour: Mantine's dimmed grey is below WCAG AA contrast. */
export const READABLE_DESCRIPTION = { description: { color: 'var(--mantine-color-text)' } }

/** Error messages and the text of a field in error, dark enough to read (Mantine's red 6 is not). */
const READABLE_ERROR = {
  error: { color: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-3))' },
  input: { color: 'var(--mantine-color-text)' },
}

/** Number fields' limits: retry times count whole tries, quota per unit takes cents. */
const NUMBER_STEPS: Partial<Record<OptionKey, string>> = {
  QuotaPerUnit: '0.01',
  ChannelDisableThreshold: 'any',
}

export interface OptionFieldProps {
  optionKey: OptionKey
  form: UseFormReturnType<OptionFormValues>
  /** Replaces the input chosen by the option's kind (Markdown editors, the theme select...). */
  render?: (props: OptionFieldProps) => ReactNode
}

export function optionLabelKey(key: OptionKey): TranslationKey {
  return `settings.options.${key}` as TranslationKey
}

/** One option's input, chosen by its kind: text, number, secret (never shown back) or JSON. */
export function OptionField(props: OptionFieldProps) {
  const { t } = useTranslation()
  const { optionKey: key, form } = props
  if (props.render) return props.render(props)
  const common = {
    label: t(optionLabelKey(key)),
    styles: READABLE_ERROR,
    ...form.getInputProps(key),
  }
  const kind = OPTION_DEFINITIONS[key].kind
  if (kind === 'secret') {
    return (
      <PasswordInput
        key={form.key(key)}
        {...common}
        autoComplete="new-password"
        placeholder={t('settings.secretPlaceholder')}
      />
    )
  }
  if (kind === 'json-ratio') {
    // JsonInput shows its own check on blur; it carries the server's message for the option.
    const problem = ratioJsonProblem(RATIO_OPTION_LABELS[key] ?? key, form.getValues()[key] ?? '')
    return (
      <JsonInput
        key={form.key(key)}
        {...common}
        validationError={common.error ?? problem}
        autosize
        minRows={4}
        maxRows={16}
        formatOnBlur
        styles={{
          ...READABLE_ERROR,
          input: {
            ...READABLE_ERROR.input,
            fontFamily: 'var(--mantine-font-family-monospace)',
            fontSize: 13,
          },
        }}
      />
    )
  }
  if (kind === 'integer' || kind === 'number') {
    return (
      <TextInput
        key={form.key(key)}
        {...common}
        type="number"
        inputMode="decimal"
        min={0}
        step={NUMBER_STEPS[key] ?? '1'}
      />
    )
  }
  return <TextInput key={form.key(key)} {...common} placeholder={kind === 'url' ? 'https://' : undefined} />
}
