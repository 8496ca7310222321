import { Alert, Button, Card, Center, Group, Loader, Stack, Table, Text, UnstyledButton } from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'
import { IconAlertTriangle, IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { TablePager } from './table-pager.tsx'
import type { SortOrder } from './use-table-params.ts'

export interface Column<Row> {
  key: string
  header: ReactNode
  render: (row: Row) => ReactNode
  /** The column's header sorts the list by `key`. */
  sortable?: boolean
  /** Hidden from the phone card (the card's title already shows it, or it is not needed there). */
  hideOnPhone?: boolean
}

export interface DataTableProps<Row> {
  /** The table's accessible name. */
  label: string
  columns: Column<Row>[]
  rows: Row[] | undefined
  rowKey: (row: Row) => string | number
  loading: boolean
  /** Set when the rows could not be loaded; the message is shown with a retry button. */
  error?: string
  onRetry?: () => void
  emptyMessage: string
  sort?: { column: string | undefined; order: SortOrder; onToggle: (column: string) => void }
  /** Absent for lists that are not paged (search results). */
  pager?: { page: number; pageSize: number; onChange: (page: number) => void }
  rowActions?: (row: Row) => ReactNode
  /** The heading of a row's card in the phone layout. */
  cardTitle: (row: Row) => ReactNode
}

/** Below this width rows become cards. */
export const PHONE_QUERY = '(max-width: 600px)'

function SortIcon({ active, order }: { active: boolean; order: SortOrder }) {
  if (!active) return <IconSelector size={14} aria-hidden />
  return order === 'asc' ? <IconArrowUp size={14} aria-hidden /> : <IconArrowDown size={14} aria-hidden />
}

function HeaderCell<Row>({ column, sort }: { column: Column<Row>; sort: DataTableProps<Row>['sort'] }) {
  if (!column.sortable || !sort) return <Table.Th>{column.header}</Table.Th>
  const active = sort.column === column.key
  const ariaSort = active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'
  return (
    <Table.Th aria-sort={ariaSort}>
      <UnstyledButton onClick={() => sort.onToggle(column.key)} fw={700} fz="sm">
        <Group gap={4} wrap="nowrap">
          {column.header}
          <SortIcon active={active} order={sort.order} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  )
}

function RowCard<Row>({ row, props }: { row: Row; props: DataTableProps<Row> }) {
  return (
    <Card withBorder padding="sm" component="li" aria-label={String(props.rowKey(row))}>
      <Stack gap={6}>
        <Text fw={600}>{props.cardTitle(row)}</Text>
        {props.columns
          .filter((column) => !column.hideOnPhone)
          .map((column) => (
            <Group key={column.key} justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" c="dimmed">
                {column.header}
              </Text>
              <div style={{ textAlign: 'right', minWidth: 0 }}>{column.render(row)}</div>
            </Group>
          ))}
        {props.rowActions && <Group gap="xs">{props.rowActions(row)}</Group>}
      </Stack>
    </Card>
  )
}

function Body<Row>({ props, phone }: { props: DataTableProps<Row>; phone: boolean }) {
  const { t } = useTranslation()
  const { rows = [], columns, rowActions } = props
  if (phone) {
    return (
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label={props.label}>
        {rows.map((row) => (
          <RowCard key={props.rowKey(row)} row={row} props={props} />
        ))}
      </Stack>
    )
  }
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={props.label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <HeaderCell key={column.key} column={column} sort={props.sort} />
            ))}
            {rowActions && <Table.Th>{t('table.actions')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={props.rowKey(row)}>
              {columns.map((column) => (
                <Table.Td key={column.key}>{column.render(row)}</Table.Td>
              ))}
              {rowActions && (
                <Table.Td>
                  {/* Actions wrap onto a second line rather than push the table wider than the page. */}
                  <Group gap={6} wrap="wrap">
                    {rowActions(row)}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

/**
 * The one list component of the console: server-paged rows, sortable headers, row actions, the
 * loading, empty and error states, and cards instead of a table on a phone.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { t } = useTranslation()
  const phone = useMediaQuery(PHONE_QUERY) ?? false
  const { rows, loading, error, pager } = props
  let content: ReactNode
  if (error) {
    content = (
      <Alert color="red" icon={<IconAlertTriangle />} title={t('table.loadFailed')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{error}</Text>
          {props.onRetry && (
            <Button size="xs" variant="light" onClick={props.onRetry}>
              {t('table.retry')}
            </Button>
          )}
        </Stack>
      </Alert>
    )
  } else if (loading && !rows) {
    content = (
      <Center py="xl" role="status">
        <Group gap="sm">
          <Loader size="sm" />
          <Text c="dimmed">{t('loading.short')}</Text>
        </Group>
      </Center>
    )
  } else if (!rows || rows.length === 0) {
    content = (
      <Center py="xl">
        <Text c="dimmed">{props.emptyMessage}</Text>
      </Center>
    )
  } else {
    content = <Body props={props} phone={phone} />
  }
  return (
    <Stack gap="sm" aria-busy={loading}>
      {content}
      {pager && !error && (
        <TablePager
          page={pager.page}
          onChange={pager.onChange}
          hasNextPage={(rows?.length ?? 0) >= pager.pageSize}
        />
      )}
    </Stack>
  )
}
