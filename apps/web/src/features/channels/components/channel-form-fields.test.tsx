import { cleanup, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import type { ChannelPayload } from '../api/save-channel.ts'
import { newChannelValues } from '../lib/channel-form-values.ts'
import { ChannelForm } from './channel-form.tsx'

const REPLIES: Record<string, unknown> = {
  '/api/group/': ['default'],
  '/api/models': { '1': ['gpt-4o'] },
  '/api/channel/models': [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }, { id: 'claude-3-opus' }],
}

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async (url: string) => new Response(JSON.stringify({ success: true, message: '', data: REPLIES[url] })),
    ),
  )
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function renderForm(type = '1') {
  const onSubmit = vi.fn<(payload: ChannelPayload) => void>()
  renderWithProviders(
    <ChannelForm
      initialValues={{ ...newChannelValues(), type }}
      creating
      submitting={false}
      onSubmit={onSubmit}
      onCancel={vi.fn()}
    />,
  )
  return onSubmit
}

const textbox = (name: RegExp) => screen.getByRole('textbox', { name })
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Create' }))

describe('ChannelForm fields', { timeout: 120_000 }, () => {
  it('fills every model, clears them all, and takes a custom model name on Enter', async () => {
    const onSubmit = renderForm()
    await userEvent.click(textbox(/^Name/))
    await userEvent.paste('fields')
    await userEvent.click(textbox(/^Key/))
    await userEvent.paste('sk-1')
    await waitFor(() =>
      expect(vi.mocked(fetch)).toHaveBeenCalledWith('/api/channel/models', expect.anything()),
    )
    await userEvent.click(screen.getByRole('button', { name: 'Fill all models' }))
    await submit()
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    expect(onSubmit.mock.calls[0][0].models).toEqual(['gpt-4o', 'gpt-4o-mini', 'claude-3-opus'])

    await userEvent.click(screen.getByRole('button', { name: 'Clear all' }))
    await submit()
    expect(await screen.findByText('please select at least one model')).toBeInTheDocument()

    await userEvent.type(
      screen.getByPlaceholderText('Type a model name and press Enter'),
      'my-own-model{Enter}',
    )
    await submit()
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2))
    expect(onSubmit.mock.calls[1][0].models).toEqual(['my-own-model'])
  })

  it('fills the model redirect with the example of dated names', async () => {
    renderForm()
    await userEvent.click(screen.getByRole('button', { name: 'Fill in the example' }))
    expect(JSON.parse((textbox(/^Model redirect/) as HTMLTextAreaElement).value)).toEqual({
      'gpt-3.5-turbo-0301': 'gpt-3.5-turbo',
      'gpt-4-0314': 'gpt-4',
      'gpt-4-32k-0314': 'gpt-4-32k',
    })
  })

  it.each([
    ['15', 'APIKey|SecretKey'],
    ['18', 'APPID|APISecret|APIKey'],
    ['22', 'APIKey-AppId'],
    ['23', 'AppId|SecretId|SecretKey'],
  ])('type %s says its key format %s', (type, hint) => {
    renderForm(type)
    expect(screen.getByText(`Key format: ${hint}`)).toBeInTheDocument()
    expect(textbox(/^Key/)).toHaveAttribute('placeholder', hint)
  })

  it.each([
    ['3', ['Azure OpenAI endpoint', 'Default API version']],
    ['8', ['Base URL']],
    ['18', ['Model version']],
    ['21', ['Knowledge base ID']],
    ['17', ['Plugin parameter']],
    ['34', ['User ID']],
    ['33', ['Region', 'Access key (AK)', 'Secret key (SK)']],
    ['42', ['Region', 'Project ID', 'Application default credentials (JSON)']],
    ['37', ['Account ID']],
    ['22', ['Private deployment address']],
  ])('type %s asks for its own fields', (type, labels) => {
    renderForm(type)
    for (const label of labels)
      expect(screen.getByLabelText(new RegExp(`^${literal(label)}`))).toBeInTheDocument()
  })

  it('explains the model name for Coze and Doubao, and asks no models for a proxy', () => {
    renderForm('34')
    expect(
      screen.getByText(/the model name is the Bot ID, optionally prefixed with bot-/),
    ).toBeInTheDocument()
    cleanup()
    renderForm('40')
    expect(
      screen.getByText(/Create an inference endpoint .* use its name as the model name/),
    ).toBeInTheDocument()
    cleanup()
    renderForm('43')
    expect(screen.queryByRole('button', { name: 'Fill all models' })).toBeNull()
    expect(screen.queryByText('Models')).toBeNull()
  })
})

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
