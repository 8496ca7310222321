import { useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'

/** The administrator's texts (the "Other" settings): each may be Markdown or an https:// page. */
export type SiteContent = 'home_page_content' | 'notice' | 'about'

export function useSiteContent(content: SiteContent) {
  return useQuery({
    queryKey: ['site-content', content],
    queryFn: async () => (await apiGet<string>(`/api/${content}`)) ?? '',
  })
}
