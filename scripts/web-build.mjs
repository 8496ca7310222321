// Builds the console when apps/web/dist is missing or older than its sources, so that
// `npm start` and `npm test` always serve the current console without a separate step.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const web = join(root, 'apps/web')
const builtIndex = join(web, 'dist/index.html')

function newestModification(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue
    newest = Math.max(newest, newestModification(join(path, entry)))
  }
  return newest
}

/** Whether Vite is installed (it is not after `npm ci --omit=dev`). */
function canBuild() {
  try {
    createRequire(join(web, 'package.json')).resolve('vite/package.json')
    return true
  } catch {
    return false
  }
}

export function ensureWebBuilt() {
  if (!existsSync(join(web, 'index.html'))) return
  const sources = ['src', 'public', 'index.html', 'vite.config.ts']
    .map((entry) => join(web, entry))
    .filter(existsSync)
  const stale =
    !existsSync(builtIndex) || Math.max(...sources.map(newestModification)) > statSync(builtIndex).mtimeMs
  if (!stale) return
  // A production install of a tree built before: its console is served as it is.
  if (!canBuild()) {
    if (!existsSync(builtIndex))
      console.warn('The console is not built and Vite is not installed: no console')
    return
  }
  buildWeb()
}

export function buildWeb() {
  console.log('Building the console (apps/web) ...')
  const result = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web', '--silent'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (result.status !== 0) {
    console.error('Building the console failed')
    process.exit(result.status ?? 1)
  }
}
