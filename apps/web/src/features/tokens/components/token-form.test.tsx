import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import { NEW_TOKEN_VALUES, TokenForm, type TokenFormValues } from './token-form.tsx'

function renderForm(initialValues: TokenFormValues = NEW_TOKEN_VALUES) {
  const onSubmit = vi.fn()
  renderWithProviders(
    <TokenForm
      initialValues={initialValues}
      models={['gpt-4o', 'gpt-4o-mini']}
      exampleIp="192.168.1.0"
      submitting={false}
      onSubmit={onSubmit}
      onCancel={vi.fn()}
    />,
  )
  return onSubmit
}

describe('token form', () => {
  it('starts with quota 500,000, never expiring, no scope, and shows the quota note and the subnet example', async () => {
    const onSubmit = renderForm()
    expect(screen.getByLabelText('Quota')).toHaveValue('500,000')
    expect(screen.getByText(/only caps this token/)).toBeInTheDocument()
    expect(screen.getByText(/e\.g\. 192\.168\.1\.0\/24/)).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText(/^Name/), 'laptop')
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'laptop',
      remain_quota: 500_000,
      expired_time: -1,
      unlimited_quota: false,
      models: '',
      subnet: '',
    })
  })

  it('refuses an empty name with the server message and sends nothing', async () => {
    const onSubmit = renderForm()
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(await screen.findByText('name is required')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('sets the expiry one day ahead with the quick button, and back to never', async () => {
    const onSubmit = renderForm()
    await userEvent.type(screen.getByLabelText(/^Name/), 'day')
    const before = Math.floor(Date.now() / 1000)
    await userEvent.click(screen.getByRole('button', { name: 'One day' }))
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    const expiry = onSubmit.mock.calls[0]?.[0].expired_time as number
    // The input keeps whole seconds, so the result is within a few seconds of now + 86,400.
    expect(Math.abs(expiry - (before + 86_400))).toBeLessThan(5)
    await userEvent.click(screen.getByRole('button', { name: 'Never expires' }))
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onSubmit.mock.calls[1]?.[0].expired_time).toBe(-1)
  })

  it('refuses a subnet that is not an address or CIDR, on the IP field', async () => {
    const onSubmit = renderForm()
    await userEvent.type(screen.getByLabelText(/^Name/), 'lan')
    await userEvent.type(screen.getByLabelText('IP restriction'), '10.0.0.0/8, nonsense')
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(await screen.findByText('invalid subnet: nonsense')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('sends the chosen models comma-joined and the unlimited flag; quota is disabled when unlimited', async () => {
    const onSubmit = renderForm({ ...NEW_TOKEN_VALUES, name: 'scoped', models: ['gpt-4o'] })
    expect(screen.getByRole('button', { name: 'gpt-4o' })).toBeInTheDocument()
    await userEvent.click(screen.getByLabelText('Unlimited quota'))
    expect(screen.getByLabelText('Quota')).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ models: 'gpt-4o', unlimited_quota: true }),
    )
  })
})
