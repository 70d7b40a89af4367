import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const contracts = fileURLToPath(new URL('../../libs/contracts/src', import.meta.url));
const client = fileURLToPath(new URL('../../libs/client/src/index.ts', import.meta.url));

// Built into dist/dashboard by `npm run build`; the API serves it under /dashboard with a strict CSP.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  plugins: [react()],
  resolve: {
    // Only the browser-safe contract files (pure constants) are imported, never the index with its Node imports.
    // The API's types come from the typed client's sources (libs/client), the one copy generated from the OpenAPI document.
    alias: { '@contracts': contracts, '@messaging-gateway/client': client },
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    // The CSP forbids inline scripts and styles from elsewhere; keep assets as files.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    // `npx vite apps/dashboard` during development: API calls go to the running API.
    proxy: {
      ...Object.fromEntries(
        ['/auth', '/account', '/admin', '/session', '/sandbox', '/events', '/messages', '/instance', '/health'].map((path) => [
          path,
          { target: process.env.DASHBOARD_API_URL ?? 'http://127.0.0.1:3000', changeOrigin: false },
        ]),
      ),
      // The console's live feeds (one WebSocket per tab).
      '/dashboard/socket': { target: process.env.DASHBOARD_API_URL ?? 'http://127.0.0.1:3000', changeOrigin: false, ws: true },
    },
  },
});
