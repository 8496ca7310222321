import type { ChannelView } from '@one-api/contracts/channel'
import { cleanup, screen } from '@testing-library/react'
import i18next from 'i18next'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import { channelColumns } from './channel-columns.tsx'

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ success: true, message: '', data: {} }))),
  )
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

/** The type cell of one row, as the channel list draws it when the relay serves `served` types. */
function renderTypeCell(type: number, served: readonly number[]) {
  const column = channelColumns(i18next.t, served).find((each) => each.key === 'type')
  if (!column) throw new Error('the channel list has no type column')
  renderWithProviders(<div>{column.render({ id: 1, type } as ChannelView)}</div>)
}

describe('channel list type cell', () => {
  it('marks a PaLM channel as retired by Google', async () => {
    renderTypeCell(11, [1, 11, 14])
    expect(await screen.findByText('Retired by Google')).toBeTruthy()
    expect(screen.queryByText('Not served by the relay yet')).toBeNull()
  })

  it('says so when the relay does not serve the channel type', async () => {
    renderTypeCell(24, [1, 14])
    expect(await screen.findByText('Not served by the relay yet')).toBeTruthy()
  })

  it('adds no badge to a type the relay serves', async () => {
    renderTypeCell(14, [1, 14])
    expect(await screen.findByText('Anthropic Claude')).toBeTruthy()
    expect(screen.queryByText('Not served by the relay yet')).toBeNull()
    expect(screen.queryByText('Retired by Google')).toBeNull()
  })
})
