import { ActionIcon, Table, Text, TextInput } from '@mantine/core'
import { IconTrash } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type PriceRow, parsePrice } from '../lib/ratio-prices.ts'

interface PriceRowEditorProps {
  row: PriceRow
  /** Returns an error message when the prices cannot be written as ratios. */
  onChange: (input: number | undefined, output: number | undefined) => string | undefined
  onRemove: () => void
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value))

/** One model's prices; the ratios change as soon as both typed prices make sense. */
export function PriceRowEditor({ row, onChange, onRemove }: PriceRowEditorProps) {
  const { t } = useTranslation()
  const [input, setInput] = useState(text(row.input))
  const [output, setOutput] = useState(text(row.output))
  const [error, setError] = useState<string | undefined>()
  const tokens = row.unit === 'token'
  const update = (nextInput: string, nextOutput: string) => {
    setInput(nextInput)
    setOutput(nextOutput)
    const inputPrice = parsePrice(nextInput)
    const outputPrice = tokens ? parsePrice(nextOutput) : undefined
    if (inputPrice === 'invalid' || outputPrice === 'invalid') {
      setError(t('settings.prices.notANumber'))
      return
    }
    setError(onChange(inputPrice, outputPrice))
  }
  const unitLabel = t(`settings.prices.units.${row.unit}`)
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {row.model}
        </Text>
        <Text size="xs">{unitLabel}</Text>
      </Table.Td>
      <Table.Td>
        <TextInput
          size="xs"
          inputMode="decimal"
          aria-label={t('settings.prices.inputOf', { model: row.model })}
          leftSection="$"
          value={input}
          error={error}
          onChange={(event) => update(event.currentTarget.value, output)}
        />
      </Table.Td>
      <Table.Td>
        {tokens ? (
          <TextInput
            size="xs"
            inputMode="decimal"
            aria-label={t('settings.prices.outputOf', { model: row.model })}
            leftSection="$"
            placeholder={t('settings.prices.builtIn')}
            value={output}
            onChange={(event) => update(input, event.currentTarget.value)}
          />
        ) : (
          <Text size="sm">-</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" aria-label={t('settings.prices.cachedOf', { model: row.model })}>
          {row.cachedInput === undefined ? '-' : `$${row.cachedInput}`}
        </Text>
      </Table.Td>
      <Table.Td>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('settings.prices.remove', { model: row.model })}
          onClick={onRemove}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  )
}
