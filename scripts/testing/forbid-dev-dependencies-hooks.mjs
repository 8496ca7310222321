// Module resolution hooks for forbid-dev-dependencies.mjs.
let forbidden = new Set()

export function initialize(data) {
  forbidden = new Set(data.forbidden)
}

const packageName = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]

export async function resolve(specifier, context, nextResolve) {
  if (forbidden.has(packageName(specifier))) {
    throw new Error(`${specifier} is a development dependency, loaded at run time from ${context.parentURL}`)
  }
  const resolved = await nextResolve(specifier, context)
  if (/\.(ts|tsx|mts|cts)$/.test(resolved.url)) {
    throw new Error(`${resolved.url} is TypeScript, loaded at run time from ${context.parentURL}`)
  }
  return resolved
}
