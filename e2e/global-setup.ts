import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { ROOT_PASSWORD, UPSTREAM_KEY } from './constants.ts'
import { freePort, startServer } from './server.ts'
import { SignInServices } from './sign-in-services.ts'

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url))

/** The fake OpenAI-format provider, on a free port of 127.0.0.1. */
async function startMockUpstream(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    [
      '--conditions=compiled',
      'tools/mock-upstream/dist/main.js',
      '--port',
      String(port),
      '--api-key',
      UPSTREAM_KEY,
    ],
    { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the mock upstream exited with code ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/v1/models`)).status < 500) break
    } catch {
      // Not listening yet.
    }
    await sleep(250)
  }
  const stop = async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await Promise.race([exited, sleep(5000)])
    if (child.exitCode === null) child.kill('SIGKILL')
  }
  return { url, stop }
}

export default async function globalSetup() {
  if (!existsSync(join(repositoryRoot, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` first.')
  }
  // The server and the fake upstream run compiled; this compiles them when their sources changed.
  const compile = '../scripts/compile.mjs'
  const { ensureCompiled } = (await import(compile)) as { ensureCompiled: () => Promise<void> }
  await ensureCompiled()
  const upstream = await startMockUpstream()
  const signInServices = await SignInServices.start()
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    server = await startServer({
      repositoryRoot,
      rootPassword: ROOT_PASSWORD,
      env: signInServices.gatewayEnv(),
    })
  } catch (error) {
    await upstream.stop()
    await signInServices.stop()
    throw error
  }
  try {
    await signInServices.configureGateway(server.baseUrl)
  } catch (error) {
    await server.stop()
    await upstream.stop()
    await signInServices.stop()
    throw error
  }
  process.env.E2E_BASE_URL = server.baseUrl
  process.env.E2E_UPSTREAM_URL = upstream.url
  process.env.E2E_MAILBOX_URL = signInServices.mailboxUrl
  return async () => {
    await server.stop()
    await upstream.stop()
    await signInServices.stop()
  }
}
