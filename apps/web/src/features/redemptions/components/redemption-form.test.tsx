import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import { codesFileName, codesFileText } from '../lib/codes-file.ts'
import { NEW_REDEMPTION_VALUES, RedemptionForm } from './redemption-form.tsx'

describe('redemption form', () => {
  it('creates one code of 100,000 by default and sends integers', async () => {
    const onSubmit = vi.fn()
    renderWithProviders(
      <RedemptionForm
        mode="create"
        initialValues={NEW_REDEMPTION_VALUES}
        renderQuota={(quota) => `${quota} units`}
        submitting={false}
        onSubmit={onSubmit}
        onCancel={vi.fn()}
      />,
    )
    expect(screen.getByLabelText('Quota per code')).toHaveValue('100,000')
    expect(screen.getByText('Shown as 100000 units')).toBeInTheDocument()
    expect(screen.getByLabelText(/^Number of codes/)).toHaveValue('1')
    await userEvent.type(screen.getByLabelText(/^Name/), '  promo  ')
    await userEvent.clear(screen.getByLabelText(/^Number of codes/))
    await userEvent.type(screen.getByLabelText(/^Number of codes/), '3')
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onSubmit).toHaveBeenCalledWith({ name: 'promo', quota: 100_000, count: 3 })
  })

  it('refuses an empty name and a count over 100 with the server messages', async () => {
    const onSubmit = vi.fn()
    renderWithProviders(
      <RedemptionForm
        mode="create"
        initialValues={{ ...NEW_REDEMPTION_VALUES, count: 101 }}
        renderQuota={(quota) => `${quota} units`}
        submitting={false}
        onSubmit={onSubmit}
        onCancel={vi.fn()}
      />,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(await screen.findByText('name is required')).toBeInTheDocument()
    expect(screen.getByText('count must be at most 100')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('edits name and quota without a count; a used code keeps its quota', async () => {
    const onSubmit = vi.fn()
    renderWithProviders(
      <RedemptionForm
        mode="edit"
        id={7}
        used
        initialValues={{ name: 'old', quota: 500, count: 1 }}
        renderQuota={(quota) => `${quota} units`}
        submitting={false}
        onSubmit={onSubmit}
        onCancel={vi.fn()}
      />,
    )
    expect(screen.queryByLabelText(/^Number of codes/)).toBeNull()
    expect(screen.getByLabelText('Quota per code')).toBeDisabled()
    expect(screen.getByText(/has been redeemed/)).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText(/^Name/))
    await userEvent.type(screen.getByLabelText(/^Name/), 'renamed')
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onSubmit).toHaveBeenCalledWith({ id: 7, name: 'renamed', quota: 500 })
  })

  it('names the downloaded file after the codes and writes one code per line', () => {
    expect(codesFileName('promo')).toBe('promo.txt')
    expect(codesFileText(['a1', 'b2']).split('\n').filter(Boolean)).toEqual(['a1', 'b2'])
  })
})
