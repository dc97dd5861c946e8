import { performance } from 'node:perf_hooks';
import { cpuUsage } from 'node:process';
import setup from '../../test/helpers/global-setup.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateSetup: { wall: number; cpu: number };
  }
}

/** test/helpers/global-setup.ts, timed (wall and CPU of the main vitest process). */
export default async function timedSetup({
  provide,
}: {
  provide: (key: 'dbTemplate' | 'templateSetup', value: never) => void;
}) {
  const w0 = performance.now();
  const c0 = cpuUsage();
  const teardown = await setup({ provide: (key, value) => provide(key, value as never) });
  const c = cpuUsage(c0);
  provide('templateSetup', { wall: performance.now() - w0, cpu: (c.user + c.system) / 1000 } as never);
  return teardown;
}
