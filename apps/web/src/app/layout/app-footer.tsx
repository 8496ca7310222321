import { Anchor, Box, Text } from '@mantine/core'
import { lazy, Suspense } from 'react'
import { Trans } from 'react-i18next'
import type { ConsoleStatus } from '@/lib/status.ts'

const PROJECT_URL = 'https://github.com/songquanpeng/one-api'

const FooterHtml = lazy(() => import('./footer-html.tsx').then((module) => ({ default: module.FooterHtml })))

/** The administrator's footer HTML (sanitised), else the product name and version. */
export function AppFooter({ status }: { status: ConsoleStatus }) {
  const footerHtml = status.footer_html ?? ''
  return (
    <Box component="footer" className="app-footer" py="md" px="md" ta="center">
      {footerHtml ? (
        <Suspense fallback={null}>
          <FooterHtml html={footerHtml} />
        </Suspense>
      ) : (
        <Text size="sm" c="dimmed">
          <Trans
            i18nKey="footer.default"
            values={{ name: status.systemName, version: status.version }}
            components={{
              project: (
                <Anchor href={PROJECT_URL} target="_blank" rel="noreferrer" size="sm" underline="always" />
              ),
            }}
          />
        </Text>
      )}
    </Box>
  )
}
