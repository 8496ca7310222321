import { Stack, Text, Title } from '@mantine/core'

/** A management screen whose content arrives in a later release: its title and what it will hold. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap="sm">
      <Title order={2}>{title}</Title>
      <Text c="dimmed">{description}</Text>
    </Stack>
  )
}
