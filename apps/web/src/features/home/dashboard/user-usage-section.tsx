import { BarChart } from '@mantine/charts'
import { Alert, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core'
import { IconCoin, IconHash, IconMessages } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { useUserDashboard } from '../api/get-user-dashboard.ts'
import { ChartCard } from './chart-card.tsx'
import { StatCard } from './stat-card.tsx'
import { useNumberFormat } from './use-number-format.ts'
import { summariseUserUsage } from './user-usage.ts'

const SERIES_COLORS = ['blue.6', 'teal.6', 'violet.6', 'orange.6', 'pink.6', 'gray.5']
/** Models drawn as their own series; the rest are summed under "other". */
const CHART_MODELS = 5

/** The signed-in user's own week: spend, requests and tokens per day and per model. */
export function UserUsageSection() {
  const { t } = useTranslation()
  const format = useNumberFormat()
  const dashboard = useUserDashboard()
  if (dashboard.isPending) return <Skeleton height={320} radius="md" />
  if (dashboard.isError) return <Alert color="red">{t('dashboard.loadFailed')}</Alert>
  const usage = summariseUserUsage(dashboard.data)
  const charted = usage.models.slice(0, CHART_MODELS).map((model) => model.model)
  const other = t('dashboard.otherModels')
  const days = usage.days.map((day) => {
    const row: Record<string, number | string> = { day: day.day.slice(5), [other]: 0 }
    for (const model of usage.models) {
      const value = Number(day[model.model] ?? 0)
      if (charted.includes(model.model)) row[model.model] = value
      else row[other] = Number(row[other]) + value
    }
    row.requests = day.requests
    row.tokens = day.tokens
    return row
  })
  const series = [...charted, ...(usage.models.length > CHART_MODELS ? [other] : [])].map((name, index) => ({
    name,
    color: SERIES_COLORS[index % SERIES_COLORS.length],
  }))
  return (
    <Stack gap="md">
      <Title order={3}>{t('dashboard.yourUsage')}</Title>
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <StatCard
          label={t('dashboard.spend')}
          value={format.quota(usage.totals.quota)}
          icon={<IconCoin size={20} />}
        />
        <StatCard
          label={t('dashboard.requests')}
          value={format.count(usage.totals.requests)}
          icon={<IconMessages size={20} />}
        />
        <StatCard
          label={t('dashboard.tokens')}
          value={format.count(usage.totals.tokens)}
          icon={<IconHash size={20} />}
        />
      </SimpleGrid>
      {usage.totals.requests === 0 ? (
        <Text c="dimmed">{t('dashboard.noUsage')}</Text>
      ) : (
        <>
          <ChartCard title={t('dashboard.spendPerDay')}>
            <BarChart
              maxBarWidth={36}
              h={260}
              data={days}
              dataKey="day"
              type="stacked"
              series={series}
              valueFormatter={format.axisQuota}
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
            />
          </ChartCard>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <ChartCard title={t('dashboard.requestsPerDay')}>
              <BarChart
                maxBarWidth={36}
                h={200}
                data={days}
                dataKey="day"
                series={[{ name: 'requests', label: t('dashboard.requests'), color: 'teal.6' }]}
                valueFormatter={format.count}
              />
            </ChartCard>
            <ChartCard title={t('dashboard.tokensPerDay')}>
              <BarChart
                maxBarWidth={36}
                h={200}
                data={days}
                dataKey="day"
                series={[{ name: 'tokens', label: t('dashboard.tokens'), color: 'violet.6' }]}
                valueFormatter={format.count}
              />
            </ChartCard>
          </SimpleGrid>
          <ChartCard title={t('dashboard.perModel')}>
            <Table striped highlightOnHover fz="sm" horizontalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('dashboard.model')}</Table.Th>
                  <Table.Th ta="right">{t('dashboard.requests')}</Table.Th>
                  <Table.Th ta="right">{t('dashboard.tokens')}</Table.Th>
                  <Table.Th ta="right">{t('dashboard.spend')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {usage.models.map((model) => (
                  <Table.Tr key={model.model}>
                    <Table.Td>{model.model || '—'}</Table.Td>
                    <Table.Td ta="right">{format.count(model.requests)}</Table.Td>
                    <Table.Td ta="right">{format.count(model.tokens)}</Table.Td>
                    <Table.Td ta="right">{format.quota(model.quota)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ChartCard>
        </>
      )}
    </Stack>
  )
}
