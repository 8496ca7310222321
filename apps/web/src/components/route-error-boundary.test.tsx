import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Link, Route, Routes, useLocation } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import { RouteErrorBoundary } from './route-error-boundary.tsx'

function Broken(): never {
  throw new Error('the page broke')
}

/** A header link outside the boundary, and the page inside it, as in the layout. */
function Frame() {
  const { pathname } = useLocation()
  return (
    <>
      <Link to="/fine">Go elsewhere</Link>
      <RouteErrorBoundary resetKey={pathname}>
        <Routes>
          <Route path="/broken" element={<Broken />} />
          <Route path="/fine" element={<p>A working page</p>} />
        </Routes>
      </RouteErrorBoundary>
    </>
  )
}

describe('the page error boundary', () => {
  it('shows the error page in place of a page that threw, and leaves it on the next page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    renderWithProviders(<Frame />, '/broken')
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible()
    expect(screen.getByText('the page broke')).toBeVisible()
    await userEvent.click(screen.getByRole('link', { name: 'Go elsewhere' }))
    expect(screen.getByText('A working page')).toBeVisible()
    expect(screen.queryByText('the page broke')).toBeNull()
    vi.restoreAllMocks()
  })
})
