import { defineConfig } from 'vitest/config'

// One runner for the whole workspace. Database-backed suites run against SQLite always and
// against PostgreSQL / MySQL / Redis when TEST_POSTGRES_URL / TEST_MYSQL_URL / TEST_REDIS_URL are set.
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'tools/**/*.test.ts',
      'bench/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    globalSetup: ['scripts/testing/compile-before-tests.mjs'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
})
