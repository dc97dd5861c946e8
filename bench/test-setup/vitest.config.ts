import { defineConfig } from 'vitest/config';

/** npm run bench:test-setup: see run.bench-file.ts. */
export default defineConfig({
  test: {
    include: ['bench/test-setup/run.bench-file.ts'],
    globalSetup: ['bench/test-setup/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
