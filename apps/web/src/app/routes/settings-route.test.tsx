import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { clearStoredUser, storeUser } from '@/lib/user-store.ts'
import { apiReply, carolSelf } from '@/testing/api-replies.ts'
import { renderWithProviders } from '@/testing/render.tsx'
import { SettingsRoute } from './settings-route.tsx'

function signInAs(role: number) {
  storeUser({ id: 7, username: 'carol', display_name: 'Carol', role, status: 1, group: 'default' })
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/user/self') return apiReply({ ...carolSelf, role })
      if (url === '/api/option/') return apiReply([{ key: 'SMTPServer', value: 'smtp.example.com' }])
      return apiReply(null)
    }),
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
  clearStoredUser()
})

describe('the settings screen the app composes', () => {
  it('shows the redemption and bound accounts cards on the personal tab, reading the user record once', async () => {
    signInAs(1)
    renderWithProviders(<SettingsRoute />, '/setting')
    expect(await screen.findByRole('region', { name: 'Redeem a code' })).toBeInTheDocument()
    expect(await screen.findByText('carol@example.com')).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Bound accounts' })).toBeInTheDocument()
    const reads = vi.mocked(fetch).mock.calls.filter(([url]) => url === '/api/user/self')
    expect(reads).toHaveLength(1)
  })

  it('offers root a test mail under the SMTP options', async () => {
    signInAs(100)
    renderWithProviders(<SettingsRoute />, '/setting?tab=system')
    expect(await screen.findByRole('button', { name: 'Send a test mail' })).toBeInTheDocument()
    expect(await screen.findByLabelText('Test mail recipient')).toHaveValue('carol@example.com')
  })
})
