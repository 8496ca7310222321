import { z } from 'zod'

/**
 * Environment configuration, read once at start. Variable names and meanings follow one-api, so an
 * existing one-api environment works unchanged; every variable is documented in
 * docs/configuration.md. A bad value stops the start with a message naming the variable.
 */
const booleanVar = z
  .enum(['true', 'false', '1', '0', 'TRUE', 'FALSE', 'True', 'False'])
  .transform((value) => value.toLowerCase() === 'true' || value === '1')

const integerVar = (min: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .refine((value) => value >= min, `must be at least ${min}`)

const envSchema = z.object({
  PORT: integerVar(0).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  SQL_DSN: z.string().optional(),
  SQLITE_PATH: z.string().min(1).default('data/one-api.db'),
  SQLITE_BUSY_TIMEOUT: integerVar(0).default(3000),
  LOG_SQL_DSN: z.string().optional(),
  SQL_MAX_OPEN_CONNS: integerVar(1).default(20),
  SQL_MAX_LIFETIME: integerVar(0).default(60),
  REDIS_CONN_STRING: z.string().optional(),
  REDIS_PASSWORD: z.string().optional(),
  SESSION_SECRET: z.string().optional(),
  INITIAL_ROOT_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(20).optional(),
  INITIAL_ROOT_TOKEN: z
    .string()
    .regex(/^(sk-)?[A-Za-z0-9]{1,48}$/, 'must be letters and digits (optionally prefixed sk-)')
    .optional(),
  INITIAL_ROOT_ACCESS_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9]{1,32}$/, 'must be at most 32 letters and digits')
    .optional(),
  RELAY_TIMEOUT: integerVar(0).default(0),
  RELAY_PROXY: z.url('must be a URL').optional(),
  // The most an upstream answer read whole into memory may hold (a non-stream answer, an error);
  // past it the call fails with a 502 and nothing is billed. 64 MiB unless set.
  RELAY_MAX_RESPONSE_BYTES: integerVar(1024).default(64 * 1024 * 1024),
  // The most a streamed answer may last, in seconds; it is cut then. 0 (the default): no limit.
  RELAY_MAX_STREAM_SECONDS: integerVar(0).default(0),
  // Image URLs fetched for providers that take images inline only (Anthropic through the OpenAI
  // format): the most one image may hold, how long it may take, and whether internal addresses
  // (private, loopback, link-local) may be fetched from.
  RELAY_IMAGE_MAX_BYTES: integerVar(1024).default(5 * 1024 * 1024),
  RELAY_IMAGE_TIMEOUT: integerVar(1).default(10),
  RELAY_IMAGE_ALLOW_PRIVATE: booleanVar.default(false),
  GLOBAL_API_RATE_LIMIT: integerVar(0).default(480),
  GLOBAL_WEB_RATE_LIMIT: integerVar(0).default(240),
  CRITICAL_RATE_LIMIT: integerVar(0).default(20),
  CHANNEL_TEST_FREQUENCY: integerVar(1).optional(),
  // Automatic disabling needs this many key/account failures within the window (seconds).
  CHANNEL_DISABLE_FAILURE_COUNT: integerVar(1).default(3),
  CHANNEL_DISABLE_FAILURE_WINDOW: integerVar(1).default(300),
  BATCH_UPDATE_ENABLED: booleanVar.default(false),
  BATCH_UPDATE_INTERVAL: integerVar(1).default(5),
  SYNC_FREQUENCY: integerVar(1).default(600),
  POLLING_INTERVAL: integerVar(0).default(0),
  NODE_TYPE: z.enum(['master', 'slave']).default('master'),
  FRONTEND_BASE_URL: z.url('must be a URL').optional(),
  DEBUG: booleanVar.default(false),
  DEBUG_SQL: booleanVar.default(false),
  ENFORCE_INCLUDE_USAGE: booleanVar.default(false),
  TEST_PROMPT: z.string().default('Output only your specific model name with no additional text.'),
  GEMINI_SAFETY_SETTING: z.string().default('BLOCK_NONE'),
  GEMINI_VERSION: z.string().default('v1'),
  USER_CONTENT_REQUEST_PROXY: z.url('must be a URL').optional(),
  USER_CONTENT_REQUEST_TIMEOUT: integerVar(1).default(30),
  THEME: z.string().default('default'),
  TURNSTILE_VERIFY_URL: z.url('must be a URL').optional(),
  // Identity providers' addresses, for tests, proxies and air-gapped installs (docs/sign-in.md).
  GITHUB_OAUTH_URL: z.url('must be a URL').default('https://github.com'),
  GITHUB_API_URL: z.url('must be a URL').default('https://api.github.com'),
  LARK_OPEN_API_URL: z.url('must be a URL').default('https://open.feishu.cn'),
  LARK_PASSPORT_URL: z.url('must be a URL').default('https://passport.feishu.cn'),
  SHUTDOWN_TIMEOUT: integerVar(0).default(10),
  // Seconds after which a node that stopped writing its heartbeat counts as dead and the quota it
  // held for requests in flight is given back.
  QUOTA_HOLD_TIMEOUT: integerVar(1).default(300),
  // Where charges the database did not take within BILLING_RETRY_TIMEOUT seconds are kept until it
  // does (default: billing-spool beside the SQLite file, or data/billing-spool).
  BILLING_SPOOL_DIR: z.string().min(1).optional(),
  BILLING_RETRY_TIMEOUT: integerVar(1).default(60),
  WEB_DIST_PATH: z.string().optional(),
  // When set, GET /metrics answers only requests with Authorization: Bearer <METRICS_TOKEN>.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // Addresses of reverse proxies whose X-Forwarded-For is believed (for client IPs and rate limits).
  TRUST_PROXY: z
    .string()
    .transform((value) =>
      value === 'true' ? true : value === 'false' ? false : value.split(',').map((part) => part.trim()),
    )
    .default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

/** Every variable the server reads; docs/configuration.md documents each one (a test checks it). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape)

export type Config = z.infer<typeof envSchema> & { sessionSecretGenerated: boolean }

export class ConfigError extends Error {}

/** Parses `source` (normally `process.env`); empty strings count as unset. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned: Record<string, string> = {}
  for (const key of CONFIG_VARIABLES) {
    const value = source[key]
    if (value !== undefined && value !== '') cleaned[key] = value
  }
  const parsed = envSchema.safeParse(cleaned)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    throw new ConfigError(`Invalid environment configuration:\n  ${problems.join('\n  ')}`)
  }
  const config = parsed.data
  // one-api ignores the documented placeholder value; a random secret is generated per start instead.
  const secret =
    config.SESSION_SECRET && config.SESSION_SECRET !== 'random_string' ? config.SESSION_SECRET : undefined
  return { ...config, SESSION_SECRET: secret, sessionSecretGenerated: secret === undefined }
}
