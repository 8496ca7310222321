import { AreaChart, BarChart } from '@mantine/charts'
import {
  Alert,
  ColorSwatch,
  Group,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core'
import type { AdminDashboard } from '@one-api/contracts/dashboard'
import { IconAlertTriangle, IconCoin, IconHash, IconMessages } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAdminDashboard } from '../api/get-admin-dashboard.ts'
import { ChartCard } from './chart-card.tsx'
import { StatCard } from './stat-card.tsx'
import { useNumberFormat } from './use-number-format.ts'

const PERIODS = ['7', '30', '90']

/** Error rates from 5 % are a warning, from 20 % a problem. */
function errorColor(rate: number): string {
  if (rate >= 0.2) return 'red.6'
  if (rate >= 0.05) return 'orange.6'
  return 'teal.6'
}

const percent = (rate: number) => `${(rate * 100).toFixed(rate > 0 && rate < 0.01 ? 2 : 1)}%`

/** Everyone's usage for the administrator: totals, per day, top users, channels and models. */
export function AdminUsageSection() {
  const { t } = useTranslation()
  const [days, setDays] = useState('7')
  const dashboard = useAdminDashboard(Number(days), true)
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={3}>{t('dashboard.everyone')}</Title>
        <SegmentedControl
          aria-label={t('dashboard.period')}
          value={days}
          onChange={setDays}
          data={PERIODS.map((value) => ({ value, label: t('dashboard.lastDays', { count: Number(value) }) }))}
        />
      </Group>
      {dashboard.isPending ? (
        <Skeleton height={320} radius="md" />
      ) : dashboard.isError ? (
        <Alert color="red">{t('dashboard.loadFailed')}</Alert>
      ) : (
        <AdminUsage data={dashboard.data} />
      )}
    </Stack>
  )
}

function AdminUsage({ data }: { data: AdminDashboard }) {
  const { t } = useTranslation()
  const format = useNumberFormat()
  const { totals } = data
  const attempts = totals.request_count + totals.error_count
  const perDay = data.days.map((day) => ({
    day: day.day.slice(5),
    requests: day.request_count,
    errors: day.error_count,
    quota: day.quota,
  }))
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <StatCard
          label={t('dashboard.spend')}
          value={format.quota(totals.quota)}
          icon={<IconCoin size={20} />}
        />
        <StatCard
          label={t('dashboard.requests')}
          value={format.count(totals.request_count)}
          icon={<IconMessages size={20} />}
        />
        <StatCard
          label={t('dashboard.tokens')}
          value={format.count(totals.prompt_tokens + totals.completion_tokens)}
          icon={<IconHash size={20} />}
        />
        <StatCard
          label={t('dashboard.errorRate')}
          value={percent(totals.error_count / Math.max(1, attempts))}
          hint={t('dashboard.failedAttempts', { count: totals.error_count })}
          icon={<IconAlertTriangle size={20} />}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ChartCard title={t('dashboard.requestsAndErrorsPerDay')}>
          <AreaChart
            h={220}
            data={perDay}
            dataKey="day"
            series={[
              { name: 'requests', label: t('dashboard.requests'), color: 'teal.6' },
              { name: 'errors', label: t('dashboard.errors'), color: 'red.6' },
            ]}
            valueFormatter={format.count}
            withLegend
            legendProps={{ verticalAlign: 'bottom' }}
          />
        </ChartCard>
        <ChartCard title={t('dashboard.topModels')}>
          <BarChart
            maxBarWidth={36}
            h={220}
            data={data.models
              .slice(0, 6)
              .map((model) => ({ model: model.model_name || '—', quota: model.quota }))}
            dataKey="model"
            orientation="vertical"
            yAxisProps={{ width: 110 }}
            series={[{ name: 'quota', label: t('dashboard.spend'), color: 'blue.6' }]}
            valueFormatter={format.axisQuota}
          />
        </ChartCard>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <ChartCard title={t('dashboard.topUsers')}>
          <RankTable
            empty={t('dashboard.noUsage')}
            headers={[
              t('dashboard.user'),
              t('dashboard.requests'),
              t('dashboard.tokens'),
              t('dashboard.spend'),
            ]}
            rows={data.users.map((user) => ({
              key: String(user.user_id),
              cells: [
                user.username || `#${user.user_id}`,
                format.count(user.request_count),
                format.count(user.prompt_tokens + user.completion_tokens),
                format.quota(user.quota),
              ],
            }))}
          />
        </ChartCard>
        <ChartCard title={t('dashboard.channels')}>
          <RankTable
            empty={t('dashboard.noUsage')}
            headers={[
              t('dashboard.channel'),
              t('dashboard.requests'),
              t('dashboard.spend'),
              t('dashboard.errorRate'),
            ]}
            rows={data.channels.map((channel) => ({
              key: String(channel.channel_id),
              cells: [
                channel.channel_name
                  ? `${channel.channel_name} (#${channel.channel_id})`
                  : `#${channel.channel_id}`,
                format.count(channel.request_count),
                format.quota(channel.quota),
                <Group key="rate" gap={6} justify="flex-end" wrap="nowrap">
                  <ColorSwatch
                    size={10}
                    color={`var(--mantine-color-${errorColor(channel.error_rate).replace('.', '-')})`}
                  />
                  <Text span size="sm" fw={600}>
                    {percent(channel.error_rate)}
                  </Text>
                </Group>,
              ],
            }))}
          />
        </ChartCard>
      </SimpleGrid>
    </Stack>
  )
}

interface RankRow {
  key: string
  cells: React.ReactNode[]
}

function RankTable({ headers, rows, empty }: { headers: string[]; rows: RankRow[]; empty: string }) {
  if (rows.length === 0) return <Text c="dimmed">{empty}</Text>
  // Narrow cell padding: four columns fit a 390 px phone's card without cutting off the last.
  return (
    <Table striped highlightOnHover fz="sm" horizontalSpacing={6}>
      <Table.Thead>
        <Table.Tr>
          {headers.map((header, index) => (
            <Table.Th key={header} ta={index === 0 ? undefined : 'right'}>
              {header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key}>
            {row.cells.map((cell, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed.
              <Table.Td key={index} ta={index === 0 ? undefined : 'right'}>
                {cell}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
