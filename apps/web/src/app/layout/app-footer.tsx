import { Anchor, Box, Text } from '@mantine/core'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import type { ConsoleStatus } from '@/lib/status.ts'

const PROJECT_URL = 'https://github.com/songquanpeng/one-api'

const FooterHtml = lazy(() => import('./footer-html.tsx').then((module) => ({ default: module.FooterHtml })))

/**
 * The default footer's text with its `<project>…</project>` part as the link to the project (one
 * tag, so a split replaces react-i18next's Trans and its HTML parser in the first load).
 */
function DefaultFooter({ status }: { status: ConsoleStatus }) {
  const { t } = useTranslation()
  const text = t('footer.default', { name: status.systemName, version: status.version })
  const [before, link, after] = text.split(/<project>(.*?)<\/project>/)
  return (
    <>
      {before}
      {link !== undefined && (
        <Anchor href={PROJECT_URL} target="_blank" rel="noreferrer" size="sm" underline="always">
          {link}
        </Anchor>
      )}
      {after}
    </>
  )
}

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
          <DefaultFooter status={status} />
        </Text>
      )}
    </Box>
  )
}
