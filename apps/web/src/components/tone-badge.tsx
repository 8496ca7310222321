import { Badge, type BadgeProps, useComputedColorScheme } from '@mantine/core'
import type { ReactNode } from 'react'

/**
 * A light badge whose text is dark enough on its tinted background (WCAG AA 4.5:1): Mantine's own
 * light badges of yellow, lime or green fall short of it in the light scheme.
 */
export function ToneBadge({
  color = 'gray',
  children,
  ...props
}: BadgeProps & { color?: string; children: ReactNode }) {
  const scheme = useComputedColorScheme('light')
  return (
    <Badge
      variant="light"
      color={color}
      c={scheme === 'light' ? `${color}.9` : `${color}.2`}
      tt="none"
      {...props}
    >
      {children}
    </Badge>
  )
}
