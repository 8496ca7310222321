import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import { OptionSection } from './option-section.tsx'
import { RatioSection } from './ratio-section.tsx'

/** The option writes the forms made, as `{key, value}` bodies of PUT /api/option/. */
function sentOptions(): { key: string; value: string }[] {
  return vi
    .mocked(fetch)
    .mock.calls.filter(([url, init]) => url === '/api/option/' && init?.method === 'PUT')
    .map(([, init]) => JSON.parse(String(init?.body)))
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ success: true, message: '', data: null }))),
  )
})
afterEach(() => vi.unstubAllGlobals())

describe('an option section', () => {
  const stored = { ServerAddress: 'https://old.example', SMTPServer: 'smtp.example' }

  function renderSection() {
    renderWithProviders(
      <OptionSection title="Mail" keys={['ServerAddress', 'SMTPServer', 'SMTPToken']} stored={stored} />,
    )
  }

  it('sends only what changed, the address without its trailing slash, and never an empty secret', async () => {
    renderSection()
    expect(screen.getByLabelText('SMTP password or token')).toHaveValue('')
    const address = screen.getByLabelText('Server address')
    await userEvent.clear(address)
    await userEvent.type(address, 'https://new.example/')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(sentOptions()).toEqual([{ key: 'ServerAddress', value: 'https://new.example' }]),
    )
  })

  it('sends a typed secret', async () => {
    renderSection()
    await userEvent.type(screen.getByLabelText('SMTP password or token'), 'app-password')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sentOptions()).toEqual([{ key: 'SMTPToken', value: 'app-password' }]))
  })

  it('refuses an address that is not http(s) with the server message on the field', async () => {
    renderSection()
    const address = screen.getByLabelText('Server address')
    await userEvent.clear(address)
    await userEvent.type(address, 'ftp://files')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('ServerAddress must be an http(s) URL')).toBeInTheDocument()
    expect(sentOptions()).toEqual([])
  })
})

describe('the ratio section', () => {
  const stored = {
    ModelRatio: '{"gpt-4o":1.25}',
    CompletionRatio: '{"gpt-4o":4}',
    GroupRatio: '{"default":1}',
  }

  it('shows ratios as dollars and writes typed dollars back as ratios', async () => {
    renderWithProviders(<RatioSection stored={stored} />)
    expect(screen.getByLabelText('Input price of gpt-4o')).toHaveValue('2.5')
    expect(screen.getByLabelText('Output price of gpt-4o')).toHaveValue('10')
    await userEvent.type(screen.getByLabelText('New model name'), 'my-model')
    await userEvent.click(screen.getByRole('button', { name: 'Add model' }))
    await userEvent.type(screen.getByLabelText('Input price of my-model'), '0.15')
    await userEvent.type(screen.getByLabelText('Output price of my-model'), '0.6')
    expect(screen.getByLabelText('Cached input price of my-model')).toHaveTextContent('$0.075')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sentOptions()).toHaveLength(2))
    expect(sentOptions()).toEqual([
      { key: 'ModelRatio', value: '{"gpt-4o":1.25,"my-model":0.075}' },
      { key: 'CompletionRatio', value: '{"gpt-4o":4,"my-model":4}' },
    ])
  })

  it('puts the JSON error on the group ratio field and sends nothing', async () => {
    renderWithProviders(<RatioSection stored={stored} />)
    const group = screen.getByLabelText('Group ratios')
    await userEvent.clear(group)
    await userEvent.type(group, '{{"default": 1,')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('group ratio is not valid JSON')).toBeInTheDocument()
    expect(sentOptions()).toEqual([])
  })
})
