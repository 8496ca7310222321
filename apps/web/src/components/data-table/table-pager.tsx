import { Group, Pagination } from '@mantine/core'
import { useTranslation } from 'react-i18next'

interface TablePagerProps {
  /** 0-based. */
  page: number
  onChange: (page: number) => void
  /** The loaded page is full, so one more page may exist. */
  hasNextPage: boolean
}

/**
 * The API tells no total, so the pager offers the pages seen so far plus one more when the
 * current page is full.
 */
export function TablePager({ page, onChange, hasNextPage }: TablePagerProps) {
  const { t } = useTranslation()
  const total = page + 1 + (hasNextPage ? 1 : 0)
  return (
    <Group justify="flex-end">
      <Pagination
        total={total}
        value={page + 1}
        onChange={(value) => onChange(value - 1)}
        size="sm"
        getControlProps={(control) => ({
          'aria-label': control === 'next' ? t('table.nextPage') : t('table.previousPage'),
        })}
        getItemProps={(item) => ({ 'aria-label': t('table.page', { page: item }) })}
      />
    </Group>
  )
}
