import { Center, Loader, Stack, Text } from '@mantine/core'

export function OAuthStatus({ prompt }: { prompt: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm">
        <Loader />
        <Text role="status">{prompt}</Text>
      </Stack>
    </Center>
  )
}
