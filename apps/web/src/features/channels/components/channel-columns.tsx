import { Group, Text, Tooltip, UnstyledButton } from '@mantine/core'
import { type ChannelView, splitList } from '@one-api/contracts/channel'
import { channelTypeInfo } from '@one-api/contracts/channel-types'
import { IconAlertTriangle } from '@tabler/icons-react'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import type { Column } from '@/components/data-table/data-table.tsx'
import { ToneBadge } from '@/components/tone-badge.tsx'
import { notifySuccess } from '@/lib/notify.ts'
import { useStatus } from '@/lib/status.ts'
import { useUpdateBalance } from '../api/update-balance.ts'
import {
  balanceDisplay,
  channelStatusDisplay,
  channelTypeName,
  responseTimeDisplay,
} from '../lib/channel-display.ts'

function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation()
  const display = channelStatusDisplay(status)
  return <ToneBadge color={display.color}>{t(display.label)}</ToneBadge>
}

function ResponseTime({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation()
  const display = responseTimeDisplay(channel.response_time)
  const tested = channel.test_time > 0 ? new Date(channel.test_time * 1000).toLocaleString() : undefined
  const badge = <ToneBadge color={display.color}>{display.text ?? t('channels.notTested')}</ToneBadge>
  return tested ? <Tooltip label={t('channels.testedAt', { time: tested })}>{badge}</Tooltip> : badge
}

/** Clicking a balance asks the provider again; types that report none say so. */
function Balance({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation()
  const status = useStatus()
  const update = useUpdateBalance()
  const text = balanceDisplay(channel.type, channel.balance, status)
  return (
    <UnstyledButton
      aria-label={t('channels.refreshBalance', { name: channel.name })}
      disabled={update.isPending}
      onClick={() =>
        update.mutate(channel.id, {
          onSuccess: (balance) =>
            notifySuccess(
              t('channels.balanceUpdated', {
                name: channel.name,
                balance: balanceDisplay(channel.type, balance, status) ?? String(balance),
              }),
            ),
        })
      }
    >
      <ToneBadge variant="outline" color={text ? 'blue' : 'gray'} style={{ cursor: 'pointer' }}>
        {text ?? t('channels.balanceNotSupported')}
      </ToneBadge>
    </UnstyledButton>
  )
}

function TypeCell({ type, supported }: { type: number; supported: boolean }) {
  const { t, i18n } = useTranslation()
  const color = channelTypeInfo(type)?.color ?? 'gray'
  // one-api's "black" types get a dot in the text colour, so it shows on the dark scheme too.
  return (
    <Group gap={4} wrap="nowrap" justify="inherit">
      <ToneBadge color={color === 'black' ? 'var(--mantine-color-text)' : color}>
        {channelTypeName(type, i18n.language)}
      </ToneBadge>
      {channelTypeInfo(type)?.retired ? (
        <Tooltip label={t('channels.retiredHint')} multiline maw={320}>
          <ToneBadge color="red" variant="outline" leftSection={<IconAlertTriangle size={12} />}>
            {t('channels.retired')}
          </ToneBadge>
        </Tooltip>
      ) : (
        !supported && (
          <Tooltip label={t('channels.notServed')}>
            <ToneBadge color="orange" variant="outline" leftSection={<IconAlertTriangle size={12} />}>
              {t('channels.notServed')}
            </ToneBadge>
          </Tooltip>
        )
      )}
    </Group>
  )
}

/** The eight sortable columns of the channel list. */
export function channelColumns(
  t: TFunction,
  supportedTypes: readonly number[] | undefined,
): Column<ChannelView>[] {
  return [
    { key: 'id', header: t('channels.columns.id'), sortable: true, render: (row) => row.id },
    {
      key: 'name',
      header: t('channels.columns.name'),
      sortable: true,
      hideOnPhone: true,
      render: (row) => <Text size="sm">{row.name}</Text>,
    },
    {
      key: 'group',
      header: t('channels.columns.group'),
      sortable: true,
      render: (row) => (
        <Group gap={4} justify="inherit">
          {splitList(row.group).map((group) => (
            <ToneBadge key={group} variant="default">
              {group}
            </ToneBadge>
          ))}
        </Group>
      ),
    },
    {
      key: 'type',
      header: t('channels.columns.type'),
      sortable: true,
      render: (row) => <TypeCell type={row.type} supported={supportedTypes?.includes(row.type) ?? true} />,
    },
    {
      key: 'status',
      header: t('channels.columns.status'),
      sortable: true,
      render: (row) => <StatusBadge status={row.status} />,
    },
    {
      key: 'response_time',
      header: t('channels.columns.responseTime'),
      sortable: true,
      render: (row) => <ResponseTime channel={row} />,
    },
    {
      key: 'balance',
      header: t('channels.columns.balance'),
      sortable: true,
      render: (row) => <Balance channel={row} />,
    },
    {
      key: 'priority',
      header: t('channels.columns.priority'),
      sortable: true,
      render: (row) => row.priority,
    },
  ]
}
