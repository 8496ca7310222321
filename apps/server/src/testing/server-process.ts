/** The repository's root, where the server process runs. */
export const REPOSITORY_ROOT = new URL('../../../../', import.meta.url).pathname

/**
 * Node's arguments to run the server as production does: compiled, on plain Node (Vitest's global
 * setup compiles it first when its sources changed).
 */
export const COMPILED_SERVER = ['--conditions=compiled', 'apps/server/dist/main.js']
