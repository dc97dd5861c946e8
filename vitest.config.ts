import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'web/src/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker runs file after file without a fresh module graph: the app, Fastify, Drizzle and
    // PGlite's code are imported once per worker instead of once per file (~1.4 s of CPU each, a
    // third of a small file's cost; bench/RESULTS.md). Files share no state through modules: each
    // builds its own app on its own database copy, none mocks a module or stubs a global, and the
    // one that fakes timers (test/platform/auth.test.ts) restores them.
    isolate: false,
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
