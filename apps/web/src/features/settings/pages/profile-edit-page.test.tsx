import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import { ProfileForm } from './profile-edit-page.tsx'

const USER = {
  id: 3,
  username: 'dave',
  display_name: 'Dave',
  role: 1,
  status: 1,
  email: '',
  github_id: '',
  quota: 0,
  used_quota: 0,
  request_count: 0,
  group: 'default',
  aff_code: '',
}

function renderForm() {
  const onSubmit = vi.fn()
  renderWithProviders(<ProfileForm user={USER} submitting={false} onSubmit={onSubmit} onCancel={vi.fn()} />)
  return onSubmit
}

describe('the profile form', () => {
  it('has no group or quota field and sends only what changed', async () => {
    const onSubmit = renderForm()
    expect(screen.queryByLabelText(/Group|Quota/)).toBeNull()
    await userEvent.clear(screen.getByLabelText('Display name'))
    await userEvent.type(screen.getByLabelText('Display name'), 'David')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(onSubmit).toHaveBeenCalledWith({ display_name: 'David' })
  })

  it('refuses a short password with the server message, and two passwords that differ', async () => {
    const onSubmit = renderForm()
    await userEvent.type(screen.getByLabelText('New password'), 'short')
    await userEvent.type(screen.getByLabelText('New password again'), 'shorter')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('password must be at least 8 characters')).toBeInTheDocument()
    expect(screen.getByText('The two passwords differ')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })
})
