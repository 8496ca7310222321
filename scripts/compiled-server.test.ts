import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eventually } from '../apps/server/src/testing/eventually.ts'
import { freePort } from '../apps/server/src/testing/free-port.ts'

const root = new URL('../', import.meta.url).pathname

describe('the compiled server', () => {
  it('builds, then runs on plain Node without any development dependency or TypeScript file', async () => {
    const compiled = spawnSync(process.execPath, ['scripts/compile.mjs'], { cwd: root, encoding: 'utf8' })
    expect(compiled.status, compiled.stderr).toBe(0)
    const port = await freePort()
    let output = ''
    const server = spawn(
      process.execPath,
      [
        '--conditions=compiled',
        '--import',
        './scripts/testing/forbid-dev-dependencies.mjs',
        'apps/server/dist/main.js',
      ],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          PORT: String(port),
          SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'one-api-compiled-')), 'one-api.db'),
          INITIAL_ROOT_PASSWORD: 'root-password-1',
          LOG_LEVEL: 'warn',
        },
      },
    )
    server.stdout.on('data', (chunk) => (output += chunk))
    server.stderr.on('data', (chunk) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve))
    try {
      const status = async () => {
        const response = await fetch(`http://127.0.0.1:${port}/api/status`).catch(() => undefined)
        return response?.ok
          ? ((await response.json()) as { success: boolean; data: { version: string } })
          : undefined
      }
      await eventually(async () => (await status()) !== undefined || server.exitCode !== null, 30_000, 100)
      const answer = await status()
      expect(answer, output).toBeDefined()
      const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
      expect(answer).toMatchObject({ success: true, data: { version: `v${version}` } })
      // Signing in runs the password check and the database through the compiled code.
      const login = await fetch(`http://127.0.0.1:${port}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'root', password: 'root-password-1' }),
      })
      expect(login.status).toBe(200)
      server.kill('SIGTERM')
      expect(await exited).toBe(0)
      expect(output).not.toMatch(/development dependency|is TypeScript/)
    } finally {
      server.kill('SIGKILL')
    }
  }, 90_000)
})
