import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';

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

const SCROLL_AREA = /\/node_modules\/@mantine\/core\/esm\/components\/ScrollArea\/ScrollArea\.mjs$/;
const MERGE_REFS = '\0merge-refs';

/**
 * Mantine's ScrollArea, inside every Table (Table.ScrollContainer), imports one hook from
 * @floating-ui/react: useMergeRefs. Rollup puts a module in one chunk whole, so every page with a
 * table, the configurator included, loaded floating-ui's dropdown positioning (16 KB gzipped) for
 * a ref-merging hook (issue 31). That one import is served here by the same hook over Mantine's own
 * useMergedRef; selects, menus and popovers still import floating-ui itself. If a Mantine upgrade
 * stops importing it from ScrollArea, this does nothing.
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  return {
    name: 'scroll-area-without-floating-ui',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === '@floating-ui/react' && importer && SCROLL_AREA.test(importer) ? MERGE_REFS : null;
    },
    load(id) {
      if (id !== MERGE_REFS) return null;
      return [
        "import { useMergedRef } from '@mantine/hooks';",
        'export function useMergeRefs(refs) { return useMergedRef(...refs); }',
      ].join('\n');
    },
  };
}

const SRC = join(import.meta.dirname, 'src/');
/** The signed-in frame (menus, language, session warning): every signed-in page is drawn inside it. */
const FRAME = `${SRC}ui/AppLayout.tsx`;
/** The pages drawn without the frame: the sign-in screen and the password pages, the guest link's. */
const SIGN_IN_PAGES = /\/src\/routes\/sign-in\//;
const GUEST_PAGES = /\/src\/routes\/guest\//;
/** The pages drawn inside the frame (router.tsx loads each on its own). */
const FRAMED_PAGES =
  /\/src\/routes\/(?!sign-in\/|guest\/)[^?]*Page\.tsx$|\/src\/routes\/portal\/PortalHome\.tsx$/;
/** The configurator, the page opened from its URL most (issue 31: its cold load is budgeted). */
const CONFIGURATOR = `${SRC}routes/briefs/BriefEditorPage.tsx`;
/**
 * A small module (at most MAX_SHARED_SIZE characters of code) that the configurator uses and at
 * least SHARED_BY of the ~25 framed pages use too (Badge, Card, ActionIcon, the query hooks...)
 * goes with the frame rather than in a chunk of its own. Measured (bench/RESULTS.md): 16 and 4,000
 * make the configurator and most pages 1-3 KB lighter; 8 or no size limit made most pages 10-20 KB
 * heavier (they then loaded NumberInput and the like in vain).
 */
const SHARED_BY = 16;
const MAX_SHARED_SIZE = 4000;

type ModuleGraph = {
  getModuleInfo: (id: string) => Rollup.ModuleInfo | null;
  getModuleIds: () => IterableIterator<string>;
};

/**
 * Packages whose index only gathers their modules (`import { X } from "./x.mjs"` ... `export { X }`).
 * An import of one name from such an index is followed to that name's module, not to every module
 * of the package (through the index, the shell would seem to import all of Mantine).
 */
const BARRELS: Record<string, RegExp> = {
  '@mantine/core': /\/node_modules\/@mantine\/core\/esm\/index\.mjs$/,
  '@mantine/hooks': /\/node_modules\/@mantine\/hooks\/esm\/index\.mjs$/,
};

/** The names a module's code imports from `specifier` (`import { A, B as C } from "specifier"`). */
function namesImported(code: string, specifier: string): string[] {
  const names: string[] = [];
  const pattern = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']${specifier}["']`, 'g');
  for (const match of code.matchAll(pattern))
    for (const part of (match[1] ?? '').split(','))
      names.push(
        part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0] ?? '',
      );
  return names.filter(Boolean);
}

/** An index's names, each to the module it comes from. */
function barrelExports(graph: ModuleGraph, id: string): Map<string, string> {
  const code = graph.getModuleInfo(id)?.code ?? '';
  const from = new Map<string, string>();
  for (const match of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g))
    for (const part of (match[1] ?? '').split(',')) {
      const [name = '', alias] = part.trim().split(/\s+as\s+/);
      if (name) from.set((alias ?? name).trim(), join(dirname(id), match[2] ?? ''));
    }
  return from;
}

/** Every module `from` imports, statically only or also through dynamic imports. */
function closure(graph: ModuleGraph, from: string[], dynamic: boolean): Set<string> {
  const barrels = new Map<string, Map<string, string>>();
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (!info) continue;
    for (const imported of info.importedIds) {
      const barrel = Object.entries(BARRELS).find(([, pattern]) => pattern.test(imported))?.[0];
      if (!barrel) {
        stack.push(imported);
        continue;
      }
      if (!barrels.has(imported)) barrels.set(imported, barrelExports(graph, imported));
      const exports = barrels.get(imported)!;
      for (const name of namesImported(info.code ?? '', barrel)) {
        const target = exports.get(name);
        if (target) stack.push(target);
      }
    }
    if (dynamic) stack.push(...info.dynamicallyImportedIds);
  }
  return seen;
}

/**
 * Fewer, larger chunks for the code every signed-in page loads (issue 31). Left to itself, Rollup
 * splits the modules the signed-in frame shares with the pages (Mantine's inputs, buttons, the
 * query hooks...) into some fifty small chunks, each paying gzip's per-file cost and none sharing
 * a dictionary with the others. Here:
 *
 * - `frame`: the frame (ui/AppLayout.tsx) and what it needs that the shell and the sign-in screen
 *   do not hold. Every signed-in page loads the frame anyway; the guest page's code is left out
 *   (it would load the frame's in vain).
 * - `controls`: what the frame shares with the sign-in screen (inputs, buttons, alerts): both
 *   load all of it.
 * - the small modules the configurator shares with most framed pages (SHARED_BY) go with the frame
 *   (`common` if the guest page imports them too).
 *
 * Everything else is chunked by Rollup as before (pages, parts on demand, messages).
 */
function frameChunks() {
  let chunkOf: Map<string, string> | undefined;
  return (id: string, graph: ModuleGraph): string | undefined => {
    if (!chunkOf) {
      const ids = [...graph.getModuleIds()];
      const shell = closure(
        graph,
        ids.filter((m) => graph.getModuleInfo(m)?.isEntry),
        false,
      );
      const signIn = closure(
        graph,
        ids.filter((m) => SIGN_IN_PAGES.test(m)),
        false,
      );
      const guest = closure(
        graph,
        ids.filter((m) => GUEST_PAGES.test(m)),
        true,
      );
      chunkOf = new Map();
      for (const m of closure(graph, [FRAME], false)) {
        if (shell.has(m)) continue;
        chunkOf.set(m, signIn.has(m) ? 'controls' : guest.has(m) ? 'common' : 'frame');
      }
      const pages = ids.filter((m) => FRAMED_PAGES.test(m)).map((m) => closure(graph, [m], false));
      const guestStatic = closure(
        graph,
        ids.filter((m) => GUEST_PAGES.test(m)),
        false,
      );
      for (const m of closure(graph, [CONFIGURATOR], false)) {
        if (shell.has(m) || chunkOf.has(m) || signIn.has(m) || m === CONFIGURATOR) continue;
        if (pages.filter((page) => page.has(m)).length < SHARED_BY) continue;
        if ((graph.getModuleInfo(m)?.code?.length ?? 0) > MAX_SHARED_SIZE) continue;
        chunkOf.set(m, guestStatic.has(m) ? 'common' : 'frame');
      }
    }
    return chunkOf.get(id);
  };
}

// The app is served by the API process at /app/ (src/platform/web.ts); in development Vite serves it
// and forwards the API's paths to the service (`npm run dev` starts both).
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react(), messagesPerLanguage(), scrollAreaWithoutFloatingUi()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    // Each page is its own chunk (router.tsx); the signed-in frame's code is one (frameChunk).
    rollupOptions: { output: { manualChunks: frameChunks(), onlyExplicitManualChunks: true } },
  },
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    strictPort: true,
    proxy: { '/api': api, '/docs': api, '/health': api },
  },
});
