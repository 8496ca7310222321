import { useCallback, useMemo } from 'react'
import { useSearchParams } from 'react-router'

export type SortOrder = 'asc' | 'desc'

/** A list's page, sort, search and filters, as the URL holds them. */
export interface TableParams<Filter extends string = string> {
  /** 0-based page, the API's `p`. */
  page: number
  sort: string | undefined
  order: SortOrder
  keyword: string
  filters: Record<Filter, string>
}

export interface TableParamsControl<Filter extends string = string> {
  params: TableParams<Filter>
  setPage: (page: number) => void
  /** A new column sorts ascending; the sorted column flips its order. */
  toggleSort: (column: string) => void
  setKeyword: (keyword: string) => void
  /** Replaces the given filters ('' removes one) and goes back to the first page. */
  setFilters: (filters: Partial<Record<Filter, string>>) => void
}

function readPage(value: string | null): number {
  const page = Number(value)
  return Number.isSafeInteger(page) && page > 0 ? page : 0
}

/**
 * The state of a data table lives in the URL (`p`, `sort`, `order`, `keyword` and the named
 * filters), so a reload, the back button and a shared link show the same rows.
 */
export function useTableParams<Filter extends string = never>(
  filterNames: readonly Filter[] = [],
): TableParamsControl<Filter> {
  const [search, setSearch] = useSearchParams()
  const filterKey = filterNames.join(',')

  const params = useMemo<TableParams<Filter>>(() => {
    const filters = {} as Record<Filter, string>
    for (const name of filterKey ? (filterKey.split(',') as Filter[]) : [])
      filters[name] = search.get(name) ?? ''
    return {
      page: readPage(search.get('p')),
      sort: search.get('sort') ?? undefined,
      order: search.get('order') === 'desc' ? 'desc' : 'asc',
      keyword: search.get('keyword') ?? '',
      filters,
    }
  }, [search, filterKey])

  const update = useCallback(
    (changes: Record<string, string | undefined>) =>
      setSearch((previous) => {
        const next = new URLSearchParams(previous)
        for (const [name, value] of Object.entries(changes)) {
          if (value === undefined || value === '') next.delete(name)
          else next.set(name, value)
        }
        return next
      }),
    [setSearch],
  )

  return {
    params,
    setPage: useCallback((page) => update({ p: page > 0 ? String(page) : undefined }), [update]),
    toggleSort: useCallback(
      (column) => {
        const flip = params.sort === column && params.order === 'asc'
        update({ sort: column, order: flip ? 'desc' : 'asc', p: undefined })
      },
      [update, params.sort, params.order],
    ),
    setKeyword: useCallback((keyword) => update({ keyword: keyword.trim(), p: undefined }), [update]),
    setFilters: useCallback((filters) => update({ ...filters, p: undefined }), [update]),
  }
}
