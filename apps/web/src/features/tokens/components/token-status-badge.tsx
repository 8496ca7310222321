import { Badge } from '@mantine/core'
import { TokenStatus } from '@one-api/contracts'
import { useTranslation } from 'react-i18next'

const LOOK: Record<number, { color: string; label: 'enabled' | 'disabled' | 'expired' | 'exhausted' }> = {
  [TokenStatus.enabled]: { color: 'green', label: 'enabled' },
  [TokenStatus.disabled]: { color: 'red', label: 'disabled' },
  [TokenStatus.expired]: { color: 'yellow', label: 'expired' },
  [TokenStatus.exhausted]: { color: 'gray', label: 'exhausted' },
}

export function TokenStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation()
  const look = LOOK[status]
  if (!look)
    return (
      <Badge color="dark" variant="light">
        {t('tokens.status.unknown')}
      </Badge>
    )
  return (
    <Badge color={look.color} variant="light">
      {t(`tokens.status.${look.label}`)}
    </Badge>
  )
}
