import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { clearStoredUser, getStoredUser, storeUser } from '@/lib/user-store.ts'
import { renderWithProviders } from '@/testing/render.tsx'
import { DeleteAccountCard } from './delete-account-card.tsx'

const deletions = () => vi.mocked(fetch).mock.calls.filter(([, init]) => init?.method === 'DELETE')

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ success: true, message: '', data: null }))),
  )
})
afterEach(() => {
  vi.unstubAllGlobals()
  clearStoredUser()
})

describe('deleting one own account', () => {
  it('asks for the username and deletes only when it matches, then signs the person out', async () => {
    storeUser({ id: 7, username: 'carol', display_name: '', role: 1, status: 1, group: 'default' })
    const { router } = renderWithProviders(<DeleteAccountCard />, '/setting')
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }))
    const confirmation = await screen.findByLabelText('Type carol to confirm')
    await userEvent.type(confirmation, 'someone')
    await userEvent.click(screen.getByRole('button', { name: 'Delete for good' }))
    expect(await screen.findByText('Enter your account name to confirm the deletion')).toBeInTheDocument()
    expect(deletions()).toEqual([])
    await userEvent.clear(confirmation)
    await userEvent.type(confirmation, 'carol')
    await userEvent.click(screen.getByRole('button', { name: 'Delete for good' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(deletions().map(([url]) => url)).toEqual(['/api/user/self'])
    expect(getStoredUser()).toBeUndefined()
  })

  it('cannot be used by the super administrator', () => {
    storeUser({ id: 1, username: 'root', display_name: '', role: 100, status: 1, group: 'default' })
    renderWithProviders(<DeleteAccountCard />)
    expect(screen.getByRole('button', { name: 'Delete my account' })).toBeDisabled()
    expect(screen.getByText('The super administrator account cannot be deleted.')).toBeInTheDocument()
  })
})
