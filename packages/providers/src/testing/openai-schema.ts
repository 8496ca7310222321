/**
 * Validates bodies against OpenAI's published OpenAPI document (tests only: reads a file).
 * The document lives beside the repository, in the product side's shared/reference folder; set
 * OPENAI_OPENAPI_PATH to point elsewhere. Suites skip (and say so) when it is absent.
 */
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'

const candidates = [
  process.env.OPENAI_OPENAPI_PATH,
  new URL('../../../../../shared/reference/openai-openapi.json', import.meta.url).pathname,
].filter((path): path is string => Boolean(path))

export const openAiSchemaPath = candidates.find((path) => existsSync(path))

let definitions: Record<string, unknown> | undefined

/** OpenAI's document still writes OpenAPI 3.0 `nullable: true`; JSON Schema spells it as a union. */
function expandNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(expandNullable)
  if (typeof node !== 'object' || node === null) return node
  const { nullable, ...rest } = node as Record<string, unknown>
  const expanded = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, expandNullable(value)]),
  )
  return nullable === true ? { anyOf: [expanded, { type: 'null' }] } : expanded
}
const schemas = new Map<string, z.ZodType>()

/** The zod schema for a component of OpenAI's API, e.g. 'CreateChatCompletionResponse'. */
export function openAiSchema(name: string): z.ZodType {
  const cached = schemas.get(name)
  if (cached) return cached
  if (!openAiSchemaPath) throw new Error('OpenAI OpenAPI document not found')
  if (!definitions) {
    const document = JSON.parse(readFileSync(openAiSchemaPath, 'utf8'))
    const text = JSON.stringify(document.components.schemas).replaceAll('#/components/schemas/', '#/$defs/')
    definitions = expandNullable(JSON.parse(text)) as Record<string, unknown>
  }
  const schema = z.fromJSONSchema({ $ref: `#/$defs/${name}`, $defs: definitions } as Parameters<
    typeof z.fromJSONSchema
  >[0])
  schemas.set(name, schema)
  return schema
}

/** Issues of `value` against the named schema, as readable strings ([] when valid). */
export function schemaIssues(name: string, value: unknown): string[] {
  const result = openAiSchema(name).safeParse(value)
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
}
