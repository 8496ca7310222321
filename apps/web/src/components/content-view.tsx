import { Typography } from '@mantine/core'
import { isEmbeddedPage, renderMarkdown } from '@/lib/markdown.ts'

/** Administrator content (home page, about): an https:// address is embedded, anything else is Markdown. */
export function ContentView({ content, title }: { content: string; title: string }) {
  if (isEmbeddedPage(content)) {
    return (
      <iframe
        src={content}
        title={title}
        style={{ width: '100%', height: 'calc(100vh - 140px)', border: 0 }}
      />
    )
  }
  return (
    <Typography>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered Markdown, sanitised by DOMPurify */}
      <div dangerouslySetInnerHTML={{ __html: renderMarkdown(content) }} />
    </Typography>
  )
}
