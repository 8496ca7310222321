import { Box, Paper, Tabs, Text, Textarea } from '@mantine/core'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ContentView } from '@/components/content-view.tsx'
import { isEmbeddedPage } from '@/lib/markdown.ts'
import { type OptionFieldProps, optionLabelKey, READABLE_DESCRIPTION } from './option-field.tsx'

/**
 * A Markdown or HTML option (notice, about, home page, footer) with a preview rendered as visitors
 * will see it: sanitised, so no script an administrator pastes ever runs.
 */
export function MarkdownField({ optionKey, form }: OptionFieldProps) {
  const { t } = useTranslation()
  const label = t(optionLabelKey(optionKey))
  // The tab is state here so that opening the preview renders this field again with the typed text.
  const [tab, setTab] = useState<string | null>('write')
  const value = form.getValues()[optionKey] ?? ''
  return (
    <Box>
      <Tabs value={tab} onChange={setTab} variant="outline" keepMounted>
        <Tabs.List aria-label={label}>
          <Tabs.Tab value="write">{t('settings.markdownWrite', { field: label })}</Tabs.Tab>
          <Tabs.Tab value="preview">{t('settings.markdownPreview')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="write" pt="xs">
          <Textarea
            label={label}
            styles={READABLE_DESCRIPTION}
            description={t('settings.markdownHelp')}
            autosize
            minRows={4}
            maxRows={14}
            key={form.key(optionKey)}
            {...form.getInputProps(optionKey)}
          />
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="xs">
          <Paper withBorder p="md" mih={120} data-testid={`preview-${optionKey}`}>
            {value.trim() === '' ? (
              <Text size="sm">{t('settings.markdownEmpty')}</Text>
            ) : isEmbeddedPage(value) ? (
              <Text size="sm">{t('settings.markdownEmbedded', { url: value })}</Text>
            ) : (
              <ContentView content={value} title={label} />
            )}
          </Paper>
        </Tabs.Panel>
      </Tabs>
    </Box>
  )
}
