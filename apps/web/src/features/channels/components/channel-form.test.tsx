import { cleanup, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/testing/render.tsx'
import type { ChannelPayload } from '../api/save-channel.ts'
import { newChannelValues, valuesOf } from '../lib/channel-form-values.ts'
import { ChannelForm } from './channel-form.tsx'

/** The lists the form asks the server for: groups, related models by type, every model. */
const REPLIES: Record<string, unknown> = {
  '/api/group/': ['default', 'vip'],
  '/api/models': { '1': ['gpt-4o', 'gpt-4o-mini'], '50': [] },
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
afterEach(() => vi.unstubAllGlobals())

function renderForm(creating = true, initialValues = newChannelValues()) {
  const onSubmit = vi.fn<(payload: ChannelPayload) => void>()
  renderWithProviders(
    <ChannelForm
      initialValues={initialValues}
      creating={creating}
      submitting={false}
      onSubmit={onSubmit}
      onCancel={vi.fn()}
    />,
  )
  return onSubmit
}

/** Pastes the text into the field: typing key by key is slow in jsdom. */
async function fill(name: RegExp, text: string) {
  await userEvent.click(screen.getByRole('textbox', { name }))
  await userEvent.paste(text)
}

const submit = () => userEvent.click(screen.getByRole('button', { name: /^(Create|Save)$/ }))

// Mantine's inputs are slow to drive in jsdom on a loaded machine.
describe('ChannelForm', { timeout: 120_000 }, () => {
  it('refuses a new channel without name and key with the server message', async () => {
    const onSubmit = renderForm()
    await submit()
    expect(await screen.findByText('please fill in channel name and channel key')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('asks for a model and for JSON in the model redirect', async () => {
    const onSubmit = renderForm()
    await fill(/^Name/, 'main')
    await fill(/^Key/, 'sk-1')
    await fill(/^Model redirect/, '{bad')
    await submit()
    expect(await screen.findByText('model mapping must be valid JSON')).toBeInTheDocument()
    await userEvent.clear(screen.getByRole('textbox', { name: /^Model redirect/ }))
    await submit()
    expect(await screen.findByText('please select at least one model')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('fills the related models and sends the payload with a batch of keys', async () => {
    const onSubmit = renderForm()
    await fill(/^Name/, 'batch')
    await userEvent.click(screen.getByRole('checkbox', { name: /Batch create/ }))
    await fill(/^Key/, 'sk-a\nsk-b')
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalledWith('/api/models', expect.anything()))
    await userEvent.click(screen.getByRole('button', { name: 'Fill related models' }))
    await userEvent.type(
      screen.getByRole('textbox', { name: /^Proxy base URL/ }),
      'https://proxy.example.com/',
    )
    await submit()
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      type: 1,
      name: 'batch',
      key: 'sk-a\nsk-b',
      batch: true,
      models: ['gpt-4o', 'gpt-4o-mini'],
      group: ['default'],
      base_url: 'https://proxy.example.com/',
    })
  })

  it('edits without showing the key; a blank key is sent blank so the stored one stays', async () => {
    const stored = {
      ...valuesOf({
        id: 7,
        type: 1,
        status: 1,
        name: 'old',
        weight: 0,
        created_time: 0,
        test_time: 0,
        response_time: 0,
        base_url: '',
        other: '',
        balance: 0,
        balance_updated_time: 0,
        models: 'gpt-4o',
        group: 'default,vip',
        used_quota: 0,
        model_mapping: '',
        priority: 3,
        config: '',
        system_prompt: '',
      }),
    }
    const onSubmit = renderForm(false, stored)
    const key = screen.getByRole('textbox', { name: /^Key/ })
    expect(key).toHaveValue('')
    expect(key).toHaveAttribute('placeholder', 'Leave empty to keep the stored key')
    await userEvent.clear(screen.getByRole('textbox', { name: /^Name/ }))
    await fill(/^Name/, 'renamed')
    await submit()
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      name: 'renamed',
      key: '',
      group: ['default', 'vip'],
      priority: 3,
    })
    expect(onSubmit.mock.calls[0][0]).not.toHaveProperty('batch')
  })

  it("keeps a Gemini channel's API version in its config", async () => {
    const stored = valuesOf({
      id: 8,
      type: 24,
      status: 1,
      name: 'gemini',
      weight: 0,
      created_time: 0,
      test_time: 0,
      response_time: 0,
      base_url: '',
      other: '',
      balance: 0,
      balance_updated_time: 0,
      models: 'gemini-2.5-flash',
      group: 'default',
      used_quota: 0,
      model_mapping: '',
      priority: 0,
      config: '{"api_version":"v1"}',
      system_prompt: '',
    })
    const onSubmit = renderForm(false, stored)
    const version = screen.getByRole('textbox', { name: /^Gemini API version/ })
    expect(version).toHaveValue('v1')
    await userEvent.clear(version)
    await fill(/^Gemini API version/, 'v1beta')
    await submit()
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ type: 24, config: { api_version: 'v1beta' } })
  })

  it("edits Cohere's embedding input type and Ollama's context window in the config", async () => {
    const cohere = renderForm(false, stored(35, '{"input_type":"search_query"}'))
    const inputType = screen.getByRole('textbox', { name: /^Embedding input type/ })
    expect(inputType).toHaveValue('search_query')
    await userEvent.clear(inputType)
    await fill(/^Embedding input type/, 'classification')
    await submit()
    await waitFor(() => expect(cohere).toHaveBeenCalledTimes(1))
    expect(cohere.mock.calls[0][0]).toMatchObject({ type: 35, config: { input_type: 'classification' } })
    cleanup()

    const ollama = renderForm(false, stored(30, '{"num_ctx":4096}'))
    const numCtx = screen.getByRole('textbox', { name: /^Context window/ })
    expect(numCtx).toHaveValue('4096')
    await userEvent.clear(numCtx)
    await fill(/^Context window/, '8192')
    await submit()
    await waitFor(() => expect(ollama).toHaveBeenCalledTimes(1))
    expect(ollama.mock.calls[0][0].config).toEqual({ num_ctx: 8192 })
  })

  it('switches Responses API pass-through on for an OpenAI-format type, and shows no switch for Azure', async () => {
    const onSubmit = renderForm(false, stored(36, ''))
    const toggle = screen.getByRole('switch', { name: /^Serves the Responses API/ })
    expect(toggle).not.toBeChecked()
    await userEvent.click(toggle)
    await submit()
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ type: 36, config: { responses_api: true } })
    cleanup()

    renderForm(false, stored(3, '{"responses_api":true}'))
    expect(screen.queryByRole('switch', { name: /^Serves the Responses API/ })).toBeNull()
  })
})

/** A stored channel of `type` with `config`, as the edit page loads it. */
function stored(type: number, config: string) {
  return valuesOf({
    id: 9,
    type,
    status: 1,
    name: `type-${type}`,
    weight: 0,
    created_time: 0,
    test_time: 0,
    response_time: 0,
    base_url: '',
    other: '',
    balance: 0,
    balance_updated_time: 0,
    models: 'some-model',
    group: 'default',
    used_quota: 0,
    model_mapping: '',
    priority: 0,
    config,
    system_prompt: '',
  })
}
