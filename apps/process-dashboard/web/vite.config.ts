/**
 * Vite build of the process dashboard: `web/` is the root, the output goes to `../dist/web` with
 * relative asset URLs (`base: './'`; the `<base href>` of index.html anchors them). The dev server
 * forwards only `/process-management/api` and `/dashboard-config.json` to an admin server
 * (FW_DASHBOARD_PROXY_TARGET, default http://127.0.0.1:8080).
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const target = process.env.FW_DASHBOARD_PROXY_TARGET || 'http://127.0.0.1:8080';

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // The graph view (xyflow + dagre) is a chunk of its own: CausalGraph is imported lazily.
    chunkSizeWarningLimit: 1200,
  },
  server: {
    port: 5173,
    strictPort: false,
    proxy: {
      '/process-management/api': { target, changeOrigin: false },
      // Whether the admin server offers single sign-on (its FW_ADMIN_OIDC_* settings).
      '/dashboard-config.json': { target, changeOrigin: false },
    },
  },
});
