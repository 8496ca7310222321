import { Card, Group, Text, ThemeIcon } from '@mantine/core'
import type { ReactNode } from 'react'

/** One headline figure of a dashboard: a label, the value and an icon. */
export function StatCard({
  label,
  value,
  icon,
  hint,
}: {
  label: string
  value: string
  icon: ReactNode
  hint?: string
}) {
  return (
    <Card withBorder padding="md" radius="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="xs" tt="uppercase" fw={600}>
            {label}
          </Text>
          <Text fz={26} fw={700} lh={1.3}>
            {value}
          </Text>
          {hint && <Text size="xs">{hint}</Text>}
        </div>
        <ThemeIcon variant="light" size={38} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
    </Card>
  )
}
