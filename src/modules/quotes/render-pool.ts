import { AppError } from '../../platform/errors.ts';

/**
 * A bounded pool for PDF renders that cannot be stored (drafts' previews): at most `concurrency`
 * renders at once in this process, at most `queue` more waiting in arrival order; a request beyond
 * that answers 429 `pdf_render_busy` with Retry-After at once, rather than piling up CPU work
 * (a 50-item quote costs 120-170 ms of CPU; bench/RESULTS.md, "Quotes").
 */
export type RenderPool = {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Renders running and waiting now. */
  readonly load: { running: number; waiting: number };
};

/** What a client is told to wait before trying again (a render takes a fraction of a second). */
export const RENDER_RETRY_AFTER_SECONDS = 2;

export function createRenderPool(options: { concurrency: number; queue: number }): RenderPool {
  let running = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return {
    get load() {
      return { running, waiting: waiting.length };
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < options.concurrency) {
        running++;
      } else if (waiting.length < options.queue) {
        // The slot is handed over by release(): `running` stays as it is.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        throw new AppError('pdf_render_busy', 'Too many PDF previews are being rendered: retry shortly', {
          headers: { 'retry-after': String(RENDER_RETRY_AFTER_SECONDS) },
        });
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
