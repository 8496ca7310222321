import { Badge, type BadgeProps } from '@mantine/core'
import type { ReactNode } from 'react'

/**
 * A status badge: the colour is its dot (or border), the text keeps the page's text colour, so it
 * meets WCAG AA's 4.5:1 contrast whatever the colour (Mantine's light badges of yellow, lime or
 * green fall short of it).
 */
export function ToneBadge({
  color = 'gray',
  children,
  ...props
}: BadgeProps & { color?: string; children: ReactNode }) {
  return (
    <Badge
      variant="dot"
      color={color}
      tt="none"
      miw="max-content"
      styles={{ label: { color: 'var(--mantine-color-text)' } }}
      {...props}
    >
      {children}
    </Badge>
  )
}
