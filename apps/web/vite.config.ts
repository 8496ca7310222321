import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { firstLoadBudget } from './build/first-load-budget.ts'

// The server (apps/server) serves dist/ in production; in development Vite proxies the API to it.
const apiServer = process.env.ONE_API_DEV_SERVER ?? 'http://localhost:3000'

/** `@/lib/x` is `apps/web/src/lib/x`: shared code is imported the same way from every depth. */
export const sourceAlias = { '@': fileURLToPath(new URL('./src', import.meta.url)) }

export default defineConfig({
  plugins: [
    react(),
    // The sign-in page is the first screen anyone sees: a first visit to it downloads at most 150 kB
    // of gzipped JavaScript, or the build fails. What that load holds: docs/decisions/first-load-budget.md.
    firstLoadBudget({ routeModule: 'src/features/auth/pages/login-page.tsx', limitKb: 150, targetKb: 150 }),
  ],
  resolve: { alias: sourceAlias },
  server: {
    proxy: {
      '/api': { target: apiServer, changeOrigin: true },
      '/v1': { target: apiServer, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1000,
  },
})
