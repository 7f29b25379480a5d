/**
 * Build and dev server of the generator portal's page. The build goes to `../dist/portal-web` with
 * relative asset URLs; `fw-gen portal` serves it (index for `/`). `npm run dev` serves the page at
 * http://127.0.0.1:5174/ and forwards `/api` to a running portal (FW_GEN_PORTAL_TARGET, default
 * http://127.0.0.1:8090).
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: __dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/portal-web',
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    host: '127.0.0.1',
    port: 5174,
    strictPort: false,
    proxy: { '/api': { target: process.env.FW_GEN_PORTAL_TARGET ?? 'http://127.0.0.1:8090' } },
  },
});
