// `node --import ./forbid-dev-dependencies.mjs ...`: the process fails to load any development
// dependency (a devDependency of the root or of a workspace package, and no dependency of any) or
// any TypeScript file, as after `npm ci --omit=dev` without a TypeScript loader: proof that a
// build runs without them.
import { readdirSync, readFileSync } from 'node:fs'
import { register } from 'node:module'

const root = new URL('../../', import.meta.url)
const readJson = (path) => JSON.parse(readFileSync(new URL(path, root), 'utf8'))
const manifests = [readJson('package.json')]
for (const pattern of manifests[0].workspaces) {
  const folder = pattern.replace('/*', '')
  for (const entry of readdirSync(new URL(`${folder}/`, root), { withFileTypes: true })) {
    if (entry.isDirectory()) manifests.push(readJson(`${folder}/${entry.name}/package.json`))
  }
}
const needed = new Set(manifests.flatMap((manifest) => Object.keys(manifest.dependencies ?? {})))
const forbidden = manifests
  .flatMap((manifest) => Object.keys(manifest.devDependencies ?? {}))
  .filter((name) => !needed.has(name))
register('./forbid-dev-dependencies-hooks.mjs', import.meta.url, { data: { forbidden } })
