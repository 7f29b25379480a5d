/**
 * Build and dev server of the admin UI. The build goes to `../dist/app` with relative asset URLs
 * (the router adds `<base href>` for wherever it is mounted). `npm run dev` serves the app at
 * http://127.0.0.1:5173/ and forwards the info endpoints of the same-origin host to
 * FW_ADMIN_UI_TARGET (default http://127.0.0.1:8080); the `proxy` endpoint reads any other
 * origin — GET of the read-only paths only, as in production.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { devProxyPlugin } from './dev/dev-proxy-plugin';

export default defineConfig({
  root: __dirname,
  base: './',
  plugins: [react(), devProxyPlugin({ target: process.env.FW_ADMIN_UI_TARGET ?? 'http://127.0.0.1:8080' })],
  build: {
    outDir: '../dist/app',
    emptyOutDir: true,
    // Mermaid is loaded on demand and is large by nature; the initial bundle is what the budget is about.
    chunkSizeWarningLimit: 1500,
    sourcemap: false,
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
});
