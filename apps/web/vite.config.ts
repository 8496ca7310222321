import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The server (apps/server) serves dist/ in production; in development Vite proxies the API to it.
const apiServer = process.env.ONE_API_DEV_SERVER ?? 'http://localhost:3000'

/** `@/lib/x` is `apps/web/src/lib/x`: shared code is imported the same way from every depth. */
export const sourceAlias = { '@': fileURLToPath(new URL('./src', import.meta.url)) }

export default defineConfig({
  plugins: [react()],
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
