/**
 * Validates bodies against OpenAI's published OpenAPI document (tests only: reads a file).
 * A gzipped copy of the document is kept in __fixtures__; set OPENAI_OPENAPI_PATH to validate
 * against another version (plain JSON or gzipped).
 */
import { existsSync, readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { z } from 'zod'

const candidates = [
  process.env.OPENAI_OPENAPI_PATH,
  new URL('./__fixtures__/openai-openapi.json.gz', import.meta.url).pathname,
].filter((path): path is string => Boolean(path))

export const openAiSchemaPath = candidates.find((path) => existsSync(path))

const readDocument = (path: string) => {
  const bytes = readFileSync(path)
  return JSON.parse((path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'))
}

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
    const document = readDocument(openAiSchemaPath)
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
