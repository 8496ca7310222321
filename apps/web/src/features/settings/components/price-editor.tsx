import { Alert, Button, Group, Pagination, Stack, Table, Text, TextInput } from '@mantine/core'
import { IconPlus, IconSearch } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  applyPrices,
  formatRatioTable,
  parseRatioTable,
  pricedModels,
  priceRowOf,
} from '../lib/ratio-prices.ts'
import { PriceRowEditor } from './price-row-editor.tsx'

const PAGE_SIZE = 20

interface PriceEditorProps {
  modelRatioText: string
  completionRatioText: string
  onChange: (modelRatioText: string, completionRatioText: string) => void
}

/**
 * ModelRatio and CompletionRatio seen as dollars per million tokens (input, output, cached input),
 * per image for image models. Typing a price rewrites the two JSON tables exactly.
 */
export function PriceEditor(props: PriceEditorProps) {
  const { t } = useTranslation()
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const [added, setAdded] = useState<string[]>([])
  const [newModel, setNewModel] = useState('')
  const models = parseRatioTable(props.modelRatioText)
  const completions = parseRatioTable(props.completionRatioText)
  if (!models || !completions) return <Alert color="red">{t('settings.prices.fixJsonFirst')}</Alert>
  const names = [...new Set([...pricedModels(models, completions), ...added])].sort()
  const term = search.trim().toLowerCase()
  const shown = term ? names.filter((name) => name.toLowerCase().includes(term)) : names
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE))
  const current = Math.min(page, pages)
  const write = (nextModels: Record<string, number>, nextCompletions: Record<string, number>) =>
    props.onChange(formatRatioTable(nextModels), formatRatioTable(nextCompletions))
  const change = (model: string, input: number | undefined, output: number | undefined) => {
    const edit = applyPrices(models, completions, model, input, output)
    if (!edit.ok) return t(`settings.prices.errors.${edit.error}`)
    write(edit.models, edit.completions)
    return undefined
  }
  const remove = (model: string) => {
    setAdded((list) => list.filter((name) => name !== model))
    const edit = applyPrices(models, completions, model, undefined, undefined)
    if (edit.ok) write(edit.models, edit.completions)
  }
  const add = () => {
    const model = newModel.trim()
    if (model && !names.includes(model)) setAdded((list) => [...list, model])
    setNewModel('')
    setSearch(model)
    setPage(1)
  }
  return (
    <Stack gap="sm">
      <Text size="sm">{t('settings.prices.help')}</Text>
      <Group align="flex-end" gap="xs">
        <TextInput
          label={t('settings.prices.search')}
          leftSection={<IconSearch size={14} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value)
            setPage(1)
          }}
          style={{ flex: '1 1 180px' }}
        />
        <TextInput
          label={t('settings.prices.newModel')}
          value={newModel}
          onChange={(event) => setNewModel(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault()
              add()
            }
          }}
          style={{ flex: '1 1 180px' }}
        />
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={add}>
          {t('settings.prices.addModel')}
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing={6} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settings.prices.model')}</Table.Th>
              <Table.Th>{t('settings.prices.input')}</Table.Th>
              <Table.Th>{t('settings.prices.output')}</Table.Th>
              <Table.Th>{t('settings.prices.cachedInput')}</Table.Th>
              <Table.Th aria-label={t('settings.prices.actions')} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE).map((model) => (
              <PriceRowEditor
                key={model}
                row={priceRowOf(model, models, completions)}
                onChange={(input, output) => change(model, input, output)}
                onRemove={() => remove(model)}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {shown.length === 0 && <Text size="sm">{t('settings.prices.none')}</Text>}
      {pages > 1 && (
        <Pagination total={pages} value={current} onChange={setPage} boundaries={1} siblings={1} size="sm" />
      )}
    </Stack>
  )
}
