import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import { type Column, DataTable } from './data-table.tsx'
import { useTableParams } from './use-table-params.ts'

interface Fruit {
  id: number
  name: string
}

const columns: Column<Fruit>[] = [
  { key: 'id', header: 'ID', sortable: true, render: (row) => row.id },
  { key: 'name', header: 'Name', sortable: true, render: (row) => row.name },
]

function FruitTable({ rows, loading = false, error }: { rows?: Fruit[]; loading?: boolean; error?: string }) {
  const { params, setPage, toggleSort } = useTableParams()
  return (
    <DataTable
      label="Fruits"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.id}
      loading={loading}
      error={error}
      onRetry={vi.fn()}
      emptyMessage="No fruit"
      sort={{ column: params.sort, order: params.order, onToggle: toggleSort }}
      pager={{ page: params.page, pageSize: 2, onChange: setPage }}
      rowActions={(row) => <button type="button">Eat {row.name}</button>}
      cardTitle={(row) => row.name}
    />
  )
}

const two = [
  { id: 1, name: 'apple' },
  { id: 2, name: 'pear' },
]

describe('DataTable', () => {
  it('shows the rows with their actions', () => {
    renderWithProviders(<FruitTable rows={two} />)
    const table = screen.getByRole('table', { name: 'Fruits' })
    expect(within(table).getAllByRole('row')).toHaveLength(3)
    expect(within(table).getByRole('button', { name: 'Eat pear' })).toBeInTheDocument()
  })

  it('keeps the sort in the URL: a header sorts ascending, a second click descending', async () => {
    const { router } = renderWithProviders(<FruitTable rows={two} />, '/fruits?p=1')
    const header = () => screen.getByRole('columnheader', { name: /Name/ })
    expect(header()).toHaveAttribute('aria-sort', 'none')
    await userEvent.click(within(header()).getByRole('button'))
    expect(router.state.location.search).toBe('?sort=name&order=asc')
    expect(header()).toHaveAttribute('aria-sort', 'ascending')
    await userEvent.click(within(header()).getByRole('button'))
    expect(router.state.location.search).toBe('?sort=name&order=desc')
    expect(header()).toHaveAttribute('aria-sort', 'descending')
  })

  it('offers one more page when the page is full, and keeps the page in the URL', async () => {
    const { router } = renderWithProviders(<FruitTable rows={two} />, '/fruits')
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }))
    expect(router.state.location.search).toBe('?p=1')
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page')
  })

  it('offers no further page when the page is not full', () => {
    renderWithProviders(<FruitTable rows={[two[0]]} />, '/fruits?p=2')
    expect(screen.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page')
    expect(screen.queryByRole('button', { name: 'Page 4' })).toBeNull()
  })

  it('says so when there are no rows, while loading, and on an error', () => {
    const empty = renderWithProviders(<FruitTable rows={[]} />)
    expect(screen.getByText('No fruit')).toBeInTheDocument()
    empty.unmount()
    const loading = renderWithProviders(<FruitTable loading />)
    expect(screen.getByRole('status')).toHaveTextContent('Loading')
    loading.unmount()
    renderWithProviders(<FruitTable error="database is down" />)
    expect(screen.getByText('database is down')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument()
    expect(screen.queryByRole('table')).toBeNull()
  })
})
