import { Button, Code, Container, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { isRouteErrorResponse, useRouteError } from 'react-router'
import { isChunkLoadError } from '@/lib/chunk-load.ts'

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim()
  if (error instanceof Error) return error.message
  return String(error)
}

/** The route error boundary: a page that failed to load, or anything a page threw while rendering. */
export function RouteErrorPage() {
  const { t } = useTranslation()
  const error = useRouteError()
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
