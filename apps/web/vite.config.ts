import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The server (apps/server) serves dist/ in production; in development Vite proxies the API to it.
const apiServer = process.env.ONE_API_DEV_SERVER ?? 'http://localhost:3000'

export default defineConfig({
  plugins: [react()],
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
