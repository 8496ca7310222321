/**
 * `npm run bench -- --peers`: the published Portkey gateway (npm @portkey-ai/gateway) measured in
 * the same run, on the same mock, request and load as the others. It is installed on demand into
 * .cache/bench-peers (git-ignored; nothing of it is committed) and reached with its documented
 * headers: provider "openai" with a custom host pointing at the mock.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { freePort, REPOSITORY_ROOT, type Service, spawnNode, waitForHttp } from './processes.ts'
import type { Endpoint } from './services.ts'

const PORTKEY_PACKAGE = '@portkey-ai/gateway@1.15.2'
/** How the report names it. */
export const PORTKEY_LABEL = `Portkey gateway (npm ${PORTKEY_PACKAGE})`
const CACHE = join(REPOSITORY_ROOT, '.cache/bench-peers')
const PORTKEY_SERVER = join(CACHE, 'node_modules/@portkey-ai/gateway/build/start-server.js')

function installPortkey(log: (message: string) => void): void {
  if (existsSync(PORTKEY_SERVER)) return
  log(`--peers: installing ${PORTKEY_PACKAGE} into .cache/bench-peers (npm registry)`)
  mkdirSync(CACHE, { recursive: true })
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const result = spawnSync(
    npm,
    ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '--ignore-scripts', PORTKEY_PACKAGE],
    { stdio: 'inherit' },
  )
  if (result.status !== 0 || !existsSync(PORTKEY_SERVER)) {
    throw new Error(`installing ${PORTKEY_PACKAGE} failed (npm exited with ${result.status})`)
  }
}

/** Starts Portkey in front of the mock; the endpoint carries the headers that route to it. */
export async function startPortkey(
  mockOrigin: string,
  log: (message: string) => void,
): Promise<{ service: Service; endpoint: Endpoint }> {
  installPortkey(log)
  const port = await freePort()
  const service = spawnNode('portkey', [PORTKEY_SERVER, `--port=${port}`, '--headless'], {
    NODE_ENV: 'production',
  })
  const origin = `http://127.0.0.1:${port}`
  await waitForHttp(service, `${origin}/`)
  return {
    service,
    endpoint: {
      url: `${origin}/v1/chat/completions`,
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer sk-bench-upstream',
        'x-portkey-provider': 'openai',
        'x-portkey-custom-host': `${mockOrigin}/v1`,
      },
    },
  }
}
