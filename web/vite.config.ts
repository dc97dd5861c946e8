import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`;

// The app is served by the API process at /app/ (src/platform/web.ts); in development Vite serves it
// and forwards the API's paths to the service (`npm run dev` starts both).
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    // No manual chunks: each page is its own chunk (router.tsx), so charts load with the configurator.
  },
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    strictPort: true,
    proxy: { '/api': api, '/docs': api, '/health': api },
  },
});
