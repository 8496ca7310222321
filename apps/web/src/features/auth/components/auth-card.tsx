import { Container, Image, Paper, Stack, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import { useStatus } from '@/lib/status.ts'

/** The frame of the sign-in and sign-up forms: logo, heading, content. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const status = useStatus()
  return (
    <Container size={420} py="xl">
      <Stack align="center" gap="xs" mb="md">
        <Image src={status.logo} alt="" w={48} h={48} fit="contain" />
        <Title order={2}>{title}</Title>
      </Stack>
      <Paper withBorder shadow="sm" p="lg" radius="md">
        {children}
      </Paper>
    </Container>
  )
}
