import fc from 'fast-check'

/** A value JSON can hold. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Strings with what could fool a scanner: quotes, backslashes, braces and the usual keys. */
export const trickyString = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '"',
        '\\',
        '{',
        '}',
        '[',
        ']',
        ':',
        ',',
        '"usage":{',
        '\\"',
        'usage',
        'content',
        'é東🌸',
        '\n',
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 5 },
  )
  .map((parts) => parts.join(''))

/** Object keys: the names the relay looks for, tricky strings, and keys ending like those names. */
export const jsonKey = fc.oneof(
  fc.constantFrom('usage', 'error', 'content', 'text', 'model', 'prompt_tokens'),
  trickyString,
  fc.constantFrom('a"usage', 'x\\', '\\"error'),
)

export const { value: jsonValue, object: jsonObject } = fc.letrec<{
  value: Json
  array: Json[]
  object: Record<string, Json>
}>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    trickyString,
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(jsonKey, tie('value'), { maxKeys: 4 }),
}))

/** JSON text of `value` with `space()` between every two tokens, members in JSON.stringify's order. */
export function serialise(value: Json, space: () => string): string {
  if (Array.isArray(value)) {
    return `[${space()}${value.map((item) => serialise(item, space)).join(`${space()},${space()}`)}${space()}]`
  }
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(
      ([name, item]) => `${JSON.stringify(name)}${space()}:${space()}${serialise(item, space)}`,
    )
    return `{${space()}${members.join(`${space()},${space()}`)}${space()}}`
  }
  return JSON.stringify(value)
}

/** Whitespace to put between tokens: none most often, else any JSON allows. */
export const spacing = fc
  .array(fc.constantFrom('', '', ' ', '\n', '\t', '\r\n  '), { minLength: 1, maxLength: 7 })
  .map((spaces) => {
    let next = 0
    return () => spaces[next++ % spaces.length]!
  })

/** `value` written with random whitespace, and its bytes as the relay holds them. */
export const jsonDocument = <T extends Json>(values: fc.Arbitrary<T>) =>
  fc.tuple(values, spacing).map(([value, space]) => ({ value, bytes: Buffer.from(serialise(value, space)) }))
