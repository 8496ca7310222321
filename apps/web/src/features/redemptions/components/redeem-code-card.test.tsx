import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { apiReply } from '@/testing/api-replies.ts'
import { renderWithProviders } from '@/testing/render.tsx'
import { RedeemCodeCard } from './redeem-code-card.tsx'

/** A fake server: the status record, the user's record and the redeem call. */
function serve(topUpLink: string) {
  let quota = 1000
  const calls: unknown[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url.startsWith('/api/status')) return apiReply({ top_up_link: topUpLink, quota_per_unit: 500_000 })
      if (url.startsWith('/api/user/self')) return apiReply({ quota, used_quota: 0 })
      if (url.startsWith('/api/user/topup')) {
        calls.push(JSON.parse(String(init?.body)))
        quota += 100_000
        return apiReply(100_000)
      }
      return new Response('{}', { status: 404 })
    }),
  )
  return calls
}

afterEach(() => vi.unstubAllGlobals())

describe('redeem a code', () => {
  it('redeems the trimmed code and shows the new balance', async () => {
    const calls = serve('')
    renderWithProviders(<RedeemCodeCard />)
    expect(await screen.findByTestId('balance')).toHaveTextContent('1000')
    await userEvent.type(screen.getByLabelText('Redemption code'), '  abc123  ')
    await userEvent.click(screen.getByRole('button', { name: 'Redeem' }))
    await waitFor(() => expect(screen.getByTestId('balance')).toHaveTextContent('101k'))
    expect(calls).toEqual([{ key: 'abc123' }])
    expect(screen.getByLabelText('Redemption code')).toHaveValue('')
    expect(screen.getByText(/Ask the site's administrator/)).toBeInTheDocument()
  })

  it('refuses an empty code and offers the top-up link when one is configured', async () => {
    const calls = serve('https://shop.example/buy')
    renderWithProviders(<RedeemCodeCard />)
    expect(await screen.findByRole('link', { name: /Buy a code/ })).toHaveAttribute(
      'href',
      'https://shop.example/buy',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Redeem' }))
    expect(await screen.findByText('key is required')).toBeInTheDocument()
    expect(calls).toEqual([])
  })
})
