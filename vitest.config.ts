import { defineConfig } from 'vitest/config'
import { sourceAlias } from './apps/web/vite.config.ts'

// One runner for the whole workspace. Database-backed suites run against SQLite always and
// against PostgreSQL / MySQL / Redis when TEST_POSTGRES_URL / TEST_MYSQL_URL / TEST_REDIS_URL are set.
// The console's component tests run in jsdom with Testing Library.
export default defineConfig({
  test: {
    globalSetup: ['scripts/testing/compile-before-tests.mjs'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'tools/**/*.test.ts',
            'bench/**/*.test.ts',
            'scripts/**/*.test.ts',
            'apps/web/build/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        resolve: { alias: sourceAlias },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/testing/setup.ts'],
        },
      },
    ],
  },
})
