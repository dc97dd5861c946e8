import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

/**
 * Compiles the service to plain JavaScript: `npm run build` (run by `npm start` before it starts)
 * writes dist/server.js, which `node` runs without a TypeScript loader.
 *
 * Why: running the sources through tsx at run time cost about 55 MB of resident memory for the
 * life of the process (tsx's module hooks run in a loader thread with its own V8 heap, and every
 * module carries an inline source map), a fifth of the service's idle footprint. esbuild bundles
 * our own code in a fraction of a second; packages in node_modules stay external and are loaded by
 * Node as usual. Tests (vitest), `npm run dev` and the one-off scripts still run the sources.
 */

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Files the code reads relative to its own module (`new URL('./x', import.meta.url)`). In the
 * bundle every module's `import.meta.url` is the bundle's, so they are copied next to it, at the
 * same relative path. A module that starts reading a file this way must be added here; the build
 * fails when the bundle refers to a file that is not in the output.
 */
const ASSETS: Array<{ from: string; to: string }> = [
  { from: 'src/db/migrations', to: 'migrations' }, // src/db/migrate.ts
  { from: 'src/db/pglite-create.mjs', to: 'pglite-create.mjs' }, // src/db/pglite-data-directory.ts
  { from: 'src/modules/quotes/assets', to: 'assets' }, // src/modules/quotes/pdf-document.ts (fonts)
];

/**
 * Packages bundled with our code rather than loaded by Node from node_modules.
 *
 * drizzle-orm (issue 31): Node's ESM loader reads the package scope of every module file it
 * resolves, and drizzle-orm ships about 180 modules the service loads under one 179 KB package.json
 * (an `exports` entry per file): Node copied and parsed it again for each of them, about 160 MB of
 * garbage in the first second of every start (V8's sampling heap profiler), which made the old
 * generation grow before the service had done anything. Bundled, it is one module of ours. Only
 * our code imports it (no other package the service loads does), so there is one copy of its
 * classes either way.
 */
const BUNDLED_PACKAGES = ['drizzle-orm'];

/** esbuild's `packages: 'external'`, but for `bundled` (and their subpaths). */
function externalPackagesExcept(bundled: readonly string[]): Plugin {
  return {
    name: 'external-packages-except',
    setup(build) {
      // A bare specifier: not relative, not absolute (node: builtins included).
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const bundle = bundled.some((name) => args.path === name || args.path.startsWith(`${name}/`));
        return bundle ? undefined : { path: args.path, external: true };
      });
    },
  };
}

/**
 * Bundles each entry (name -> source file) into `outdir` as `<name>.js`, with the assets beside.
 * Also used by the benchmarks, so they measure the code `npm start` runs. Returns the outdir.
 */
export async function bundle(entryPoints: Record<string, string>, outdir: string): Promise<string> {
  const out = resolve(root, outdir);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints,
    outdir: out,
    bundle: true,
    // node_modules are not bundled: Node resolves them from the project (the output must stay
    // inside it), and packages that read their own files (swagger-ui, fonts of pdfkit) keep working.
    // Except BUNDLED_PACKAGES, see there.
    plugins: [externalPackagesExcept(BUNDLED_PACKAGES)],
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Code reached only through `await import()` goes to a chunk loaded on that call, not at start.
    // Chunks land beside the entries (no subfolder), so ASSETS resolve the same from them.
    splitting: true,
    // Not minified, so stack traces keep readable names. The map is written but only used when
    // the process runs with --enable-source-maps (which costs 10-15 MB of heap to hold it).
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    metafile: true,
  });
  for (const asset of ASSETS) cpSync(join(root, asset.from), join(out, asset.to), { recursive: true });

  // Fail now, not on the first PDF or migration, if code reads a file the list above misses.
  for (const file of Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(resolve(root, file), 'utf8');
    for (const match of code.matchAll(/new URL\(\s*["'`]([^"'`]+)["'`],\s*import\.meta\.url\s*\)/g)) {
      if (!existsSync(join(out, match[1]!))) {
        throw new Error(`${file} reads ${match[1]} next to itself: add it to ASSETS in scripts/build.ts`);
      }
    }
  }
  return out;
}

/** Builds the web application (web/, Vite) into dist/web, which the service serves at /app. */
export async function buildWeb(): Promise<void> {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: join(root, 'web/vite.config.ts'), logLevel: 'warn' });
  precompress(join(root, 'dist/web'));
}

/**
 * Writes `.br` and `.gz` beside every text asset, once at build time: the service sends them to
 * browsers that accept them (@fastify/static `preCompressed`), with no compression per request.
 */
function precompress(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) precompress(file);
    else if (/\.(js|css|html|svg|json)$/.test(entry.name)) {
      const content = readFileSync(file);
      writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      writeFileSync(
        `${file}.br`,
        brotliCompressSync(content, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundle({ server: 'src/server.ts' }, 'dist');
  if (!process.argv.includes('--server-only')) await buildWeb();
}
