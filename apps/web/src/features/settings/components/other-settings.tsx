import { Select, Stack } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import type { OptionValues } from '../api/list-options.ts'
import { MarkdownField } from './markdown-field.tsx'
import { type OptionFieldProps, optionLabelKey } from './option-field.tsx'
import { OptionSection } from './option-section.tsx'
import { UpdateCheck } from './update-check.tsx'

/** The console themes the server accepts. */
const THEMES = ['default', 'berry', 'air']

function ThemeSelect({ optionKey, form }: OptionFieldProps) {
  const { t } = useTranslation()
  return (
    <Select
      label={t(optionLabelKey(optionKey))}
      data={THEMES}
      allowDeselect={false}
      key={form.key(optionKey)}
      {...form.getInputProps(optionKey)}
    />
  )
}

/** Branding and the texts visitors read: notice, about, home page, footer; and the update check. */
export function OtherSettings({ stored }: { stored: OptionValues }) {
  const { t } = useTranslation()
  return (
    <Stack gap="md">
      <OptionSection
        title={t('settings.sections.branding')}
        keys={['SystemName', 'Logo', 'Theme']}
        stored={stored}
        renderers={{ Theme: ThemeSelect }}
      />
      <OptionSection
        title={t('settings.sections.content')}
        description={t('settings.contentHelp')}
        keys={['Notice', 'About', 'HomePageContent', 'Footer']}
        stored={stored}
        columns={1}
        renderers={{
          Notice: MarkdownField,
          About: MarkdownField,
          HomePageContent: MarkdownField,
          Footer: MarkdownField,
        }}
      />
      <UpdateCheck />
    </Stack>
  )
}
