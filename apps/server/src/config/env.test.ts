import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './env.ts'

describe('environment configuration', () => {
  it('uses one-api defaults when nothing is set', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      PORT: 3000,
      SQLITE_PATH: 'data/one-api.db',
      GLOBAL_API_RATE_LIMIT: 480,
      GLOBAL_WEB_RATE_LIMIT: 240,
      SQLITE_BUSY_TIMEOUT: 3000,
      NODE_TYPE: 'master',
      sessionSecretGenerated: true,
    })
  })

  it('names the bad variable in the error', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError)
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT: must be an integer/)
    expect(() => loadConfig({ GLOBAL_API_RATE_LIMIT: '-1' })).toThrow(/GLOBAL_API_RATE_LIMIT/)
    expect(() => loadConfig({ BATCH_UPDATE_ENABLED: 'maybe' })).toThrow(/BATCH_UPDATE_ENABLED/)
    expect(() => loadConfig({ RELAY_PROXY: 'not a url' })).toThrow(/RELAY_PROXY/)
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16/)
    expect(() => loadConfig({ INITIAL_ROOT_PASSWORD: 'short' })).toThrow(
      /INITIAL_ROOT_PASSWORD: must be at least 8/,
    )
  })

  it('ignores empty values and the placeholder session secret', () => {
    expect(loadConfig({ PORT: '', SESSION_SECRET: 'random_string' })).toMatchObject({
      PORT: 3000,
      sessionSecretGenerated: true,
    })
    expect(loadConfig({ SESSION_SECRET: 'abc' })).toMatchObject({
      SESSION_SECRET: 'abc',
      sessionSecretGenerated: false,
    })
  })

  it('parses booleans and trusted proxies', () => {
    expect(loadConfig({ BATCH_UPDATE_ENABLED: 'true', DEBUG: '1' })).toMatchObject({
      BATCH_UPDATE_ENABLED: true,
      DEBUG: true,
    })
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 127.0.0.1' }).TRUST_PROXY).toEqual(['10.0.0.1', '127.0.0.1'])
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true)
  })

  it('reads the relay caps: 64 MiB and no stream limit by default, whole numbers within bounds when set', () => {
    expect(loadConfig({})).toMatchObject({
      RELAY_MAX_RESPONSE_BYTES: 64 * 1024 * 1024,
      RELAY_MAX_STREAM_SECONDS: 0,
    })
    expect(
      loadConfig({ RELAY_MAX_RESPONSE_BYTES: '1048576', RELAY_MAX_STREAM_SECONDS: '3600' }),
    ).toMatchObject({ RELAY_MAX_RESPONSE_BYTES: 1_048_576, RELAY_MAX_STREAM_SECONDS: 3600 })
    expect(() => loadConfig({ RELAY_MAX_RESPONSE_BYTES: '64MB' })).toThrow(
      /RELAY_MAX_RESPONSE_BYTES: must be an integer/,
    )
    expect(() => loadConfig({ RELAY_MAX_RESPONSE_BYTES: '100' })).toThrow(
      /RELAY_MAX_RESPONSE_BYTES: must be at least 1024/,
    )
    expect(() => loadConfig({ RELAY_MAX_STREAM_SECONDS: '-5' })).toThrow(/RELAY_MAX_STREAM_SECONDS/)
    expect(() => loadConfig({ RELAY_MAX_STREAM_SECONDS: '1.5' })).toThrow(/RELAY_MAX_STREAM_SECONDS/)
  })
})
