import type { ModelPriceView } from '@one-api/contracts/model-price'
import type { SortOrder } from '@/components/data-table/use-table-params.ts'

export const MODEL_SORT_COLUMNS = ['model', 'input', 'output', 'cached_input'] as const
export type ModelSortColumn = (typeof MODEL_SORT_COLUMNS)[number]

export function isModelSortColumn(value: string | undefined): value is ModelSortColumn {
  return (MODEL_SORT_COLUMNS as readonly (string | undefined)[]).includes(value)
}

/** Models whose name contains the search term (case-insensitive), in the chosen order; unpriced last. */
export function filterAndSortModels(
  rows: readonly ModelPriceView[],
  keyword: string,
  column: ModelSortColumn,
  order: SortOrder,
): ModelPriceView[] {
  const term = keyword.trim().toLowerCase()
  const shown = term ? rows.filter((row) => row.model.toLowerCase().includes(term)) : [...rows]
  const direction = order === 'desc' ? -1 : 1
  return shown.sort((a, b) => {
    if (column === 'model') return direction * (a.model < b.model ? -1 : a.model > b.model ? 1 : 0)
    const left = a[column]
    const right = b[column]
    if (left === null || right === null) return left === right ? 0 : left === null ? 1 : -1
    return direction * (left - right) || (a.model < b.model ? -1 : 1)
  })
}
