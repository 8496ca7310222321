import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { clearStoredUser, storeUser } from '@/lib/user-store.ts'
import { apiReply, carolSelf } from '@/testing/api-replies.ts'
import { renderWithProviders } from '@/testing/render.tsx'
import { PersonalSettings } from './personal-settings.tsx'

beforeEach(() => {
  storeUser({ id: 7, username: 'carol', display_name: 'Carol', role: 1, status: 1, group: 'default' })
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => apiReply(url === '/api/user/self' ? carolSelf : null)),
  )
})
afterEach(() => {
  vi.unstubAllGlobals()
  clearStoredUser()
})

describe('the personal settings tab', () => {
  it('shows the cards it is given between the profile and the access token', async () => {
    renderWithProviders(
      <PersonalSettings cards={<section aria-label="Given card">given card</section>} />,
      '/setting',
    )
    const profile = await screen.findByRole('heading', { name: 'Profile' })
    const given = screen.getByRole('region', { name: 'Given card' })
    const token = screen.getByRole('heading', { name: 'System access token' })
    expect(profile.compareDocumentPosition(given) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(given.compareDocumentPosition(token) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })
})
