import { apiGet } from '@/lib/api-client.ts'

/** GitHub's authorize page, reached with a state the server issued for this session. */
export async function redirectToGitHub(clientId: string): Promise<void> {
  const state = await apiGet<string>('/api/oauth/state')
  const query = new URLSearchParams({ client_id: clientId, state, scope: 'user:email' })
  window.location.assign(`https://github.com/login/oauth/authorize?${query}`)
}
