import DOMPurify from 'dompurify'
import { marked } from 'marked'

/** Administrator-written HTML (footer) is still sanitised: a stolen admin account must not run script. */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html)
}

export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false }))
}

/** Home and About content may be a page to embed instead of text (one-api's convention). */
export function isEmbeddedPage(content: string): boolean {
  return content.startsWith('https://')
}
