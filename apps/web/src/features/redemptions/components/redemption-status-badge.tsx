import { RedemptionStatus } from '@one-api/contracts'
import { useTranslation } from 'react-i18next'
import { ToneBadge } from '@/components/tone-badge.tsx'

const TONES = {
  [RedemptionStatus.unused]: { color: 'green', label: 'unused' },
  [RedemptionStatus.disabled]: { color: 'red', label: 'disabled' },
  [RedemptionStatus.used]: { color: 'gray', label: 'used' },
} as const

/** Unused (green), disabled (red), used (grey), anything else unknown. */
export function RedemptionStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation()
  const tone = TONES[status as keyof typeof TONES] ?? { color: 'gray', label: 'unknown' }
  return <ToneBadge color={tone.color}>{t(`redemptions.status.${tone.label}`)}</ToneBadge>
}
