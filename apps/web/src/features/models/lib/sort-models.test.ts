import type { ModelPriceView } from '@one-api/contracts/model-price'
import { describe, expect, it } from 'vitest'
import { filterAndSortModels } from './sort-models.ts'

const row = (model: string, input: number | null): ModelPriceView => ({
  model,
  unit: 'token',
  model_ratio: input === null ? null : input / 2,
  completion_ratio: 1,
  group_ratio: 1,
  input,
  output: input,
  cached_input: input === null ? null : input / 2,
})

describe('model list order', () => {
  const rows = [row('gpt-4o', 2.5), row('claude-3', 3), row('unpriced', null), row('gpt-4o-mini', 0.15)]
  const names = (list: ModelPriceView[]) => list.map((entry) => entry.model)

  it('sorts by name or price either way, unpriced models last', () => {
    expect(names(filterAndSortModels(rows, '', 'model', 'asc'))).toEqual([
      'claude-3',
      'gpt-4o',
      'gpt-4o-mini',
      'unpriced',
    ])
    expect(names(filterAndSortModels(rows, '', 'input', 'asc'))).toEqual([
      'gpt-4o-mini',
      'gpt-4o',
      'claude-3',
      'unpriced',
    ])
    expect(names(filterAndSortModels(rows, '', 'input', 'desc'))).toEqual([
      'claude-3',
      'gpt-4o',
      'gpt-4o-mini',
      'unpriced',
    ])
  })

  it('finds models by a part of their name, ignoring case', () => {
    expect(names(filterAndSortModels(rows, ' GPT ', 'model', 'asc'))).toEqual(['gpt-4o', 'gpt-4o-mini'])
  })
})
