import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const api = `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`;

const I18N = join(import.meta.dirname, 'src/i18n/');
/** A language's catalogue (web/src/i18n/en.ts, fr.ts, de.ts), which assembles the feature files. */
const CATALOGUE = /\/src\/i18n\/(en|fr|de)\.ts$/;

/**
 * Each language's messages in a chunk of their own (issue 31; web/src/i18n/index.ts loads the
 * user's). A feature file of web/src/i18n (admin.ts, problems.ts...) holds all three languages, and
 * Rollup puts a module in one chunk whole, so the English chunk would carry the French and German
 * sentences too. Here a feature file imported by a language's catalogue is a module of its own per
 * language (`admin.ts?language=fr`), from which Rollup keeps only what that catalogue uses.
 */
function messagesPerLanguage(): Plugin {
  return {
    name: 'messages-per-language',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !source.startsWith('.')) return null;
      const [file = '', query] = importer.split('?');
      const language = CATALOGUE.exec(file)?.[1] ?? new URLSearchParams(query).get('language');
      if (!language) return null;
      const resolved = await this.resolve(source, file, { ...options, skipSelf: true });
      if (!resolved || resolved.external || !resolved.id.startsWith(I18N)) return resolved;
      return `${resolved.id}?language=${language}`;
    },
  };
}

// The app is served by the API process at /app/ (src/platform/web.ts); in development Vite serves it
// and forwards the API's paths to the service (`npm run dev` starts both).
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react(), messagesPerLanguage()],
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
