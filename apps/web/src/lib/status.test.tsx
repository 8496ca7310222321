import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import { refreshStatus, useStatus } from './status.ts'

/** A fake server whose system name can change; counts the status requests. */
function serve() {
  const server = { name: 'First Gateway', requests: 0 }
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (!url.startsWith('/api/status')) return new Response('{}', { status: 404 })
      server.requests += 1
      return new Response(JSON.stringify({ success: true, message: '', data: { system_name: server.name } }))
    }),
  )
  return server
}

function SystemName({ testId }: { testId: string }) {
  return <span data-testid={testId}>{useStatus().systemName}</span>
}

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

describe('the status record', () => {
  it('is fetched once for every part of the screen that shows it', async () => {
    const server = serve()
    renderWithProviders(
      <>
        <SystemName testId="header" />
        <SystemName testId="footer" />
      </>,
    )
    expect(await screen.findByText('First Gateway', { selector: '[data-testid=header]' })).toBeVisible()
    expect(screen.getByTestId('footer')).toHaveTextContent('First Gateway')
    expect(server.requests).toBe(1)
  })

  it('shows the stored copy until the server answers, and a refresh shows a changed name', async () => {
    localStorage.setItem('status', JSON.stringify({ system_name: 'Stored Gateway' }))
    const server = serve()
    renderWithProviders(<SystemName testId="header" />)
    expect(screen.getByTestId('header')).toHaveTextContent('Stored Gateway')
    expect(await screen.findByText('First Gateway')).toBeVisible()
    server.name = 'Renamed Gateway'
    await act(() => refreshStatus())
    expect(screen.getByTestId('header')).toHaveTextContent('Renamed Gateway')
    expect(server.requests).toBe(2)
  })
})
