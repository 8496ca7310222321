import { SegmentedControl, Stack } from '@mantine/core'
import type { UseFormReturnType } from '@mantine/form'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { OptionValues } from '../api/list-options.ts'
import type { OptionFormValues } from '../lib/option-changes.ts'
import { OptionField } from './option-field.tsx'
import { OptionSection } from './option-section.tsx'
import { PriceEditor } from './price-editor.tsx'

type View = 'prices' | 'json'

function RatioBody({ form }: { form: UseFormReturnType<OptionFormValues> }) {
  const { t } = useTranslation()
  const [view, setView] = useState<View>('prices')
  const values = form.getValues()
  return (
    <Stack gap="md">
      <SegmentedControl
        value={view}
        onChange={(value) => setView(value as View)}
        data={[
          { value: 'prices', label: t('settings.prices.viewPrices') },
          { value: 'json', label: t('settings.prices.viewJson') },
        ]}
        w="fit-content"
      />
      {view === 'prices' ? (
        <PriceEditor
          modelRatioText={values.ModelRatio ?? '{}'}
          completionRatioText={values.CompletionRatio ?? '{}'}
          onChange={(modelRatio, completionRatio) => {
            form.setFieldValue('ModelRatio', modelRatio)
            form.setFieldValue('CompletionRatio', completionRatio)
          }}
        />
      ) : (
        <>
          <OptionField optionKey="ModelRatio" form={form} />
          <OptionField optionKey="CompletionRatio" form={form} />
        </>
      )}
      <OptionField optionKey="GroupRatio" form={form} />
    </Stack>
  )
}

/** ModelRatio, CompletionRatio and GroupRatio: checked as JSON maps, editable as dollar prices. */
export function RatioSection({ stored }: { stored: OptionValues }) {
  const { t } = useTranslation()
  return (
    <OptionSection
      title={t('settings.sections.ratios')}
      description={t('settings.ratiosHelp')}
      keys={['ModelRatio', 'CompletionRatio', 'GroupRatio']}
      stored={stored}
      controlled
      body={(form) => <RatioBody form={form} />}
    />
  )
}
