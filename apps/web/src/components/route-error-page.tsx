import { Button, Code, Container, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { isChunkLoadError } from '@/lib/chunk-load.ts'

function describe(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

/** What the error boundary shows: a page that failed to load, or anything a page threw while rendering. */
export function RouteErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation()
  const chunkFailed = isChunkLoadError(error)
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={2}>{chunkFailed ? t('errors.chunkTitle') : t('errors.unexpectedTitle')}</Title>
        <Text>{chunkFailed ? t('errors.chunkMessage') : t('errors.unexpectedMessage')}</Text>
        <Code block>{describe(error)}</Code>
        <Button w="fit-content" onClick={() => window.location.reload()}>
          {t('errors.reload')}
        </Button>
      </Stack>
    </Container>
  )
}
