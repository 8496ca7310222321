// `npm start`: builds what is missing or older than its sources (the console, and the server's
// JavaScript), then runs the compiled server on plain Node.
import { spawn } from 'node:child_process'
import { ensureCompiled, root, SERVER_ENTRY } from './compile.mjs'
import { ensureWebBuilt } from './web-build.mjs'

ensureWebBuilt()
await ensureCompiled()
const server = spawn(process.execPath, ['--conditions=compiled', SERVER_ENTRY, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
