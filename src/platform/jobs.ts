import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database } from '../db/client.ts';

export type JobHandler<T> = (jobs: PgBoss.Job<T>[]) => Promise<void>;

type Definition = {
  name: string;
  handler: JobHandler<never>;
  work: PgBoss.WorkOptions;
  queue: Omit<PgBoss.Queue, 'name'>;
};

/**
 * Durable background jobs on pg-boss, stored in the service's own database (PGlite or
 * PostgreSQL), so they survive restarts and several processes share them safely (SKIP LOCKED).
 * Modules define their queues before start; only processes with workers enabled consume them.
 */
export type Jobs = {
  define<T>(
    name: string,
    handler: JobHandler<T>,
    options?: { work?: PgBoss.WorkOptions; queue?: Omit<PgBoss.Queue, 'name'> },
  ): void;
  send<T extends object>(name: string, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  schedule(name: string, cron: string, data?: object): Promise<void>;
  /** Work to run once the queue is started and queues exist (schedules, recovery sweeps). */
  afterStart(hook: () => Promise<void>): void;
  start(options: { runWorkers: boolean }): Promise<void>;
  stop(): Promise<void>;
  boss: PgBoss;
};

export const PGBOSS_SCHEMA = 'pgboss';

function adapterFor(database: Database): PgBoss.Db {
  if (database.kind === 'postgres') {
    return { executeSql: (text, values) => database.pool!.query(text, values as unknown[]) } as PgBoss.Db;
  }
  const pglite = database.pglite!;
  return {
    // pg-boss sends its schema migrations as several statements without parameters: PGlite runs
    // those through exec(), parameterised statements through query().
    executeSql: async (text: string, values?: unknown[]) =>
      values?.length ? pglite.query(text, values) : { rows: (await pglite.exec(text)).at(-1)?.rows ?? [] },
  } as PgBoss.Db;
}

export function createJobs(database: Database, log: FastifyBaseLogger): Jobs {
  const boss = new PgBoss({
    db: adapterFor(database),
    schema: PGBOSS_SCHEMA,
    // On PGlite one process owns the database; keep its maintenance light.
    maintenanceIntervalSeconds: database.kind === 'pglite' ? 300 : 120,
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  const definitions: Definition[] = [];
  const afterStartHooks: Array<() => Promise<void>> = [];
  let started = false;

  return {
    boss,
    define(name, handler, options = {}) {
      definitions.push({
        name,
        handler: handler as JobHandler<never>,
        work: options.work ?? {},
        queue: options.queue ?? {},
      });
    },
    async send(name, data, options = {}) {
      return boss.send(name, data, options);
    },
    afterStart(hook) {
      afterStartHooks.push(hook);
    },
    async schedule(name, cron, data) {
      await boss.schedule(name, cron, data ?? {}, { tz: 'UTC' });
    },
    async start({ runWorkers }) {
      await boss.start();
      started = true;
      for (const definition of definitions) {
        await boss.createQueue(definition.name, { name: definition.name, ...definition.queue });
      }
      for (const hook of afterStartHooks) await hook();
      if (!runWorkers) return;
      for (const definition of definitions) {
        await boss.work(definition.name, { pollingIntervalSeconds: 1, ...definition.work }, async (jobs) => {
          try {
            await definition.handler(jobs as never);
          } catch (error) {
            log.error({ err: error, queue: definition.name }, 'job failed');
            throw error;
          }
        });
      }
    },
    async stop() {
      if (!started) return;
      started = false;
      // Wait for running jobs to finish (they are retried elsewhere if the wait times out).
      await boss.stop({ graceful: true, wait: true, timeout: 15_000 });
    },
  };
}
