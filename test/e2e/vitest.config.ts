import { defineConfig } from 'vitest/config';

// End-to-end tests: the built service (npm run build) driven by Debian's chromium. Run by
// `npm run test:e2e` (CI runs it after the build); one file at a time, they start their own service.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    fileParallelism: false,
  },
});
