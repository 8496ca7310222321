import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import type { UserView } from '../api/user-keys.ts'
import { AddUserForm } from './add-user-form.tsx'
import { EditUserForm } from './edit-user-form.tsx'

const USER: UserView = {
  id: 42,
  username: 'alice',
  display_name: 'Alice',
  role: 1,
  status: 1,
  email: 'alice@example.com',
  github_id: '',
  wechat_id: '',
  quota: 1000,
  used_quota: 10,
  request_count: 2,
  group: 'default',
  last_login_ip: '',
}

describe('add user form', () => {
  it('needs a username and a password, with the 8-character hint', async () => {
    const onSubmit = vi.fn()
    renderWithProviders(<AddUserForm submitting={false} onSubmit={onSubmit} onCancel={vi.fn()} />)
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('placeholder', 'At least 8 characters')
    await userEvent.click(screen.getByRole('button', { name: 'Create user' }))
    expect(await screen.findByText('username is required')).toBeInTheDocument()
    expect(screen.getByText('password must be at least 8 characters')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('sends the new user', async () => {
    const onSubmit = vi.fn()
    renderWithProviders(<AddUserForm submitting={false} onSubmit={onSubmit} onCancel={vi.fn()} />)
    await userEvent.type(screen.getByLabelText(/^Username/), 'bob')
    await userEvent.type(screen.getByLabelText(/^Password/), 'long-enough')
    await userEvent.click(screen.getByRole('button', { name: 'Create user' }))
    expect(onSubmit).toHaveBeenCalledWith({ username: 'bob', display_name: '', password: 'long-enough' })
  })
})

function renderEdit(onSubmit = vi.fn()) {
  renderWithProviders(
    <EditUserForm
      user={USER}
      groups={['default', 'vip']}
      renderQuota={(quota) => `${quota} units`}
      submitting={false}
      onSubmit={onSubmit}
      onCancel={vi.fn()}
    />,
  )
  return onSubmit
}

describe('edit user form', () => {
  it('leaves the quota and a blank password out when untouched', async () => {
    const onSubmit = renderEdit()
    expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(onSubmit).toHaveBeenCalledWith({
      id: 42,
      username: 'alice',
      display_name: 'Alice',
      password: '',
      group: 'default',
    })
  })

  it('sends a changed group and quota', async () => {
    const onSubmit = renderEdit()
    await userEvent.click(screen.getByRole('combobox', { name: 'Group' }))
    await userEvent.click(await screen.findByRole('option', { name: 'vip', hidden: true }))
    const quota = screen.getByLabelText('Remaining quota')
    await userEvent.clear(quota)
    await userEvent.type(quota, '5000')
    expect(screen.getByText('Shown as 5000 units')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ id: 42, group: 'vip', quota: 5000 }))
  })

  it('refuses a new password shorter than 8 characters', async () => {
    const onSubmit = renderEdit()
    await userEvent.type(screen.getByLabelText(/^Password/), 'short')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('password must be at least 8 characters')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })
})
