import { useMutation } from '@tanstack/react-query'

/** The project's latest-release endpoint (GitHub's releases API). */
export const LATEST_RELEASE_URL = 'https://api.github.com/repos/songquanpeng/one-api/releases/latest'

export interface LatestRelease {
  tag: string
  name: string
  url: string
  notes: string
  publishedAt: string
}

/**
 * The latest release, or undefined when the endpoint cannot be reached in 8 s (an offline or
 * firewalled server is normal: the check stays quiet then). A direct call, not the management API.
 */
export async function fetchLatestRelease(): Promise<LatestRelease | undefined> {
  try {
    const response = await fetch(LATEST_RELEASE_URL, {
      headers: { Accept: 'application/vnd.github+json' },
      signal: AbortSignal.timeout(8000),
    })
    if (!response.ok) return undefined
    const body = (await response.json()) as Record<string, unknown>
    if (typeof body.tag_name !== 'string') return undefined
    return {
      tag: body.tag_name,
      name: typeof body.name === 'string' && body.name ? body.name : body.tag_name,
      url: typeof body.html_url === 'string' ? body.html_url : '',
      notes: typeof body.body === 'string' ? body.body : '',
      publishedAt: typeof body.published_at === 'string' ? body.published_at : '',
    }
  } catch {
    return undefined
  }
}

export const useCheckUpdate = () => useMutation({ mutationFn: fetchLatestRelease })
