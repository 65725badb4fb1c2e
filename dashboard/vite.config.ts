import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'

/**
 * The production build goes to dist/ (git-ignored), which fl0 serves at /
 * (server.ts). `npm run dev -w dashboard` proxies the server's paths to a
 * running fl0 on FL0_URL (default http://127.0.0.1:8080).
 */
const target = process.env.FL0_URL ?? 'http://127.0.0.1:8080'

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // bundle-size.ts reads the manifest to measure what the first load fetches.
    manifest: true,
    sourcemap: false,
  },
  server: {
    proxy: Object.fromEntries(['/api', '/api-v2', '/v1', '/i', '/fl0.js', '/healthz'].map((p) => [p, target])),
  },
})
