import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core'
import { IconSearch } from '@tabler/icons-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LogFilters } from '../api/log-keys.ts'
import { LOG_TYPES, toLocalInput, toTimestamp } from '../lib/log-display.ts'

interface LogFiltersFormProps {
  admin: boolean
  value: LogFilters
  onApply: (filters: LogFilters) => void
}

/** Token, model, period; channel and user for administrators; the type applies at once. */
export function LogFiltersForm({ admin, value, onApply }: LogFiltersFormProps) {
  const { t } = useTranslation()
  const [draft, setDraft] = useState(value)
  useEffect(() => setDraft(value), [value])
  const text = (name: keyof LogFilters) => ({
    value: draft[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      setDraft({ ...draft, [name]: event.currentTarget.value }),
  })
  const time = (name: 'start_timestamp' | 'end_timestamp') => ({
    type: 'datetime-local',
    // Start 0 (the default: from the first log) shows as an empty field, not as 1970.
    value: draft[name] && draft[name] !== '0' ? toLocalInput(Number(draft[name])) : '',
    onChange: (event: React.ChangeEvent<HTMLInputElement>) =>
      setDraft({ ...draft, [name]: toTimestamp(event.currentTarget.value) }),
  })
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        onApply({ ...draft, token_name: draft.token_name.trim(), model_name: draft.model_name.trim() })
      }}
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: admin ? 4 : 3 }} spacing="sm">
        <TextInput label={t('logs.filters.tokenName')} {...text('token_name')} />
        <TextInput label={t('logs.filters.modelName')} {...text('model_name')} />
        <TextInput label={t('logs.filters.start')} {...time('start_timestamp')} />
        <TextInput label={t('logs.filters.end')} {...time('end_timestamp')} />
        {admin && <TextInput label={t('logs.filters.channel')} inputMode="numeric" {...text('channel')} />}
        {admin && <TextInput label={t('logs.filters.username')} {...text('username')} />}
        <Select
          label={t('logs.filters.type')}
          data={LOG_TYPES.map((entry) => ({ value: entry.value, label: t(entry.label) }))}
          value={draft.type || '0'}
          allowDeselect={false}
          onChange={(type) => onApply({ ...value, type: type === '0' || !type ? '' : type })}
        />
      </SimpleGrid>
      <Group mt="sm">
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {t('logs.filters.apply')}
        </Button>
      </Group>
    </form>
  )
}
