// `npm start`: build the console if needed, then run the server (TypeScript through tsx).
import { spawn } from 'node:child_process'
import { ensureWebBuilt } from './web-build.mjs'

ensureWebBuilt()
const root = new URL('..', import.meta.url).pathname
const server = spawn(
  process.execPath,
  ['--import', 'tsx', 'apps/server/src/main.ts', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
