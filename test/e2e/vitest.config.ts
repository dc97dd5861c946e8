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
    // A screen reflects a change once the service has answered and the query refetched; on a loaded
    // machine that can take seconds, so polls wait long (they end as soon as the condition holds).
    expect: { poll: { timeout: 20_000 } },
  },
});
