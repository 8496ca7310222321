import { Card, Text } from '@mantine/core'
import type { ReactNode } from 'react'

export function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="md" radius="md">
      <Text fw={600} mb="md">
        {title}
      </Text>
      {children}
    </Card>
  )
}
