import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import { SendCodeButton } from './send-code-button.tsx'

function answer(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
}

describe('the "Get code" button', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('mails the code with the bot check token, then counts 30 s down before it can be used again', async () => {
    vi.useFakeTimers()
    const fetchMock = vi.fn(async () =>
      answer({ success: true, message: 'The verification code has been sent' }),
    )
    vi.stubGlobal('fetch', fetchMock)
    renderWithProviders(<SendCodeButton email="a@example.com" turnstileToken="tt" check={() => true} />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Get code' }))
    })
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/verification?email=a%40example.com&turnstile=tt',
      expect.anything(),
    )
    expect(screen.getByRole('button', { name: 'Resend (30 s)' })).toBeDisabled()
    // Each second re-renders and schedules the next tick.
    for (let second = 0; second < 29; second++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_000)
      })
    }
    expect(screen.getByRole('button', { name: 'Resend (1 s)' })).toBeDisabled()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000)
    })
    expect(screen.getByRole('button', { name: 'Get code' })).toBeEnabled()
  })

  it('sends nothing when the check refuses (an invalid address, the bot check still running)', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    renderWithProviders(<SendCodeButton email="" turnstileToken="" check={() => false} />)
    fireEvent.click(screen.getByRole('button', { name: 'Get code' }))
    expect(fetchMock).not.toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Get code' })).toBeEnabled()
  })

  it('does not start the countdown when the server refuses', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ success: false, message: 'This email address is already used' })),
    )
    renderWithProviders(<SendCodeButton email="a@example.com" turnstileToken="" check={() => true} />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Get code' }))
    })
    expect(screen.getByRole('button', { name: 'Get code' })).toBeEnabled()
  })
})
