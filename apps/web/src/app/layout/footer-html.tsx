import { Text } from '@mantine/core'
import { sanitizeHtml } from '@/lib/markdown.ts'

/** The administrator's footer HTML, sanitised; its own chunk, since DOMPurify is only needed when one is set. */
export function FooterHtml({ html }: { html: string }) {
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: administrator HTML, sanitised by DOMPurify
    <Text size="sm" c="dimmed" dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />
  )
}
