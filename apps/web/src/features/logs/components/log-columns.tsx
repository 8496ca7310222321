import { Code, Stack, Text } from '@mantine/core'
import type { LogView } from '@one-api/contracts/log'
import type { TFunction } from 'i18next'
import type { Column } from '@/components/data-table/data-table.tsx'
import { ToneBadge } from '@/components/tone-badge.tsx'
import { renderQuota } from '@/lib/quota-format.ts'
import { logTypeDisplay } from '../lib/log-display.ts'

interface QuotaDisplay {
  displayInCurrency: boolean
  quotaPerUnit: number
}

function Detail({ row, t }: { row: LogView; t: TFunction }) {
  return (
    <Stack gap={2} maw={360}>
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {row.content}
      </Text>
      {row.request_id && (
        <Text size="xs" c="dimmed">
          {t('logs.requestId')}: <Code>{row.request_id}</Code>
        </Text>
      )}
      {row.elapsed_time > 0 && (
        <Text size="xs" c="dimmed">
          {t('logs.elapsed', { seconds: (row.elapsed_time / 1000).toFixed(2) })}
          {row.is_stream ? ` · ${t('logs.stream')}` : ''}
        </Text>
      )}
    </Stack>
  )
}

/** Time, channel and user (administrators), token, type, model, tokens, quota, IP, detail. */
export function logColumns(t: TFunction, admin: boolean, quota: QuotaDisplay): Column<LogView>[] {
  const columns: (Column<LogView> | false)[] = [
    {
      key: 'created_at',
      header: t('logs.columns.time'),
      render: (row) => <Text size="sm">{new Date(row.created_at * 1000).toLocaleString()}</Text>,
    },
    admin && { key: 'channel', header: t('logs.columns.channel'), render: (row) => row.channel || '' },
    admin && { key: 'username', header: t('logs.columns.user'), render: (row) => row.username },
    { key: 'token_name', header: t('logs.columns.token'), render: (row) => row.token_name },
    {
      key: 'type',
      header: t('logs.columns.type'),
      render: (row) => {
        const display = logTypeDisplay(row.type)
        return <ToneBadge color={display.color}>{t(display.label)}</ToneBadge>
      },
    },
    { key: 'model_name', header: t('logs.columns.model'), render: (row) => row.model_name },
    { key: 'prompt_tokens', header: t('logs.columns.prompt'), render: (row) => row.prompt_tokens || '' },
    {
      key: 'completion_tokens',
      header: t('logs.columns.completion'),
      render: (row) => row.completion_tokens || '',
    },
    {
      key: 'quota',
      header: t('logs.columns.quota'),
      render: (row) => (row.quota ? renderQuota(row.quota, quota.displayInCurrency, quota.quotaPerUnit) : ''),
    },
    { key: 'ip', header: t('logs.columns.ip'), render: (row) => row.ip },
    { key: 'content', header: t('logs.columns.detail'), render: (row) => <Detail row={row} t={t} /> },
  ]
  return columns.filter((column): column is Column<LogView> => column !== false)
}
