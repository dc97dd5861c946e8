import type { FastifyBaseLogger } from 'fastify';
import {
  type Db,
  fromPglite,
  type Job,
  type JobInsert,
  PgBoss,
  type Queue,
  type SendOptions,
  type WorkOptions,
} from 'pg-boss';
import type { Database } from '../db/client.ts';

export type { Job };
export type JobHandler<T> = (jobs: Job<T>[]) => Promise<void>;
export type QueueOptions = Omit<Queue, 'name'>;

type Definition = {
  name: string;
  handler: JobHandler<never>;
  work: WorkOptions;
  queue: QueueOptions;
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
    options?: { work?: WorkOptions; queue?: QueueOptions },
  ): void;
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  schedule(name: string, cron: string, data?: object): Promise<void>;
  /** Work to run once the queue is started and queues exist (schedules, recovery sweeps). */
  afterStart(hook: () => Promise<void>): void;
  start(options: { runWorkers: boolean }): Promise<void>;
  stop(): Promise<void>;
  boss: PgBoss;
};

export const PGBOSS_SCHEMA = 'pgboss';
/** Where a pg-boss 10 schema (version 24) is set aside until its unfinished jobs are moved. */
export const PGBOSS_V10_SCHEMA = 'pgboss_v10';
/** The first schema version pg-boss 12 migrates from (pg-boss 11.0). */
const FIRST_MIGRATABLE_VERSION = 25;
/** Serialises the cut-over between processes that start together on one PostgreSQL. */
const CUTOVER_LOCK = "hashtext('pgboss-v10-cutover')";

function adapterFor(database: Database): Db {
  if (database.kind === 'postgres') {
    return { executeSql: (text, values) => database.pool!.query(text, values as unknown[]) };
  }
  // pg-boss's own PGlite adapter: multi-statement migrations through exec(), and a failed
  // statement never leaves the single connection in an aborted transaction.
  return fromPglite(database.pglite!);
}

/** Runs `work` in one transaction, with a pg-boss adapter bound to it. */
async function inTransaction<T>(database: Database, work: (db: Db) => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') {
    return database.pglite!.transaction((tx) =>
      work({ executeSql: (text, values) => tx.query(text, values as unknown[]) }),
    );
  }
  const client = await database.pool!.connect();
  try {
    await client.query('begin');
    const result = await work({ executeSql: (text, values) => client.query(text, values as unknown[]) });
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

const schemaExists = async (db: Db, name: string) =>
  (await db.executeSql('select 1 from pg_namespace where nspname = $1', [name])).rows.length > 0;

/**
 * pg-boss 12 migrates schemas from version 25 (pg-boss 11) on; pg-boss 11 itself had no migration
 * from pg-boss 10 (version 24). A database made by pg-boss 10 has its schema renamed before start,
 * so pg-boss 12 installs a fresh one; its unfinished jobs are moved over by `moveV10Jobs`.
 */
async function setAsideV10Schema(database: Database, log: FastifyBaseLogger) {
  await inTransaction(database, async (db) => {
    await db.executeSql(`select pg_advisory_xact_lock(${CUTOVER_LOCK})`);
    if (!(await schemaExists(db, PGBOSS_SCHEMA))) return;
    const { rows } = await db.executeSql(
      `select version from ${PGBOSS_SCHEMA}.version where exists (
         select 1 from information_schema.tables where table_schema = $1 and table_name = 'version')`,
      [PGBOSS_SCHEMA],
    );
    const version = rows[0] ? Number(rows[0].version) : undefined;
    if (version === undefined || version >= FIRST_MIGRATABLE_VERSION) return;
    if (await schemaExists(db, PGBOSS_V10_SCHEMA)) {
      throw new Error(
        `both ${PGBOSS_SCHEMA} (version ${version}) and ${PGBOSS_V10_SCHEMA} exist: resolve by hand`,
      );
    }
    await db.executeSql(`alter schema ${PGBOSS_SCHEMA} rename to ${PGBOSS_V10_SCHEMA}`);
    log.warn(
      { version },
      `pg-boss schema ${version} set aside as ${PGBOSS_V10_SCHEMA} for the move to pg-boss 12`,
    );
  });
}

type V10Job = {
  name: string;
  data: object | null;
  priority: number;
  singleton_key: string | null;
  start_after: Date;
};

/**
 * Moves the jobs a pg-boss 10 schema still had to run (created, retry, or active when the old
 * process stopped) into the queues of the same name, then drops the old schema: one transaction,
 * so a crash half-way leaves the old schema in place for the next start. Jobs of queues this
 * process does not define are dropped with a warning (recurring ones are scheduled again).
 */
async function moveV10Jobs(database: Database, boss: PgBoss, queues: Set<string>, log: FastifyBaseLogger) {
  await inTransaction(database, async (db) => {
    await db.executeSql(`select pg_advisory_xact_lock(${CUTOVER_LOCK})`);
    if (!(await schemaExists(db, PGBOSS_V10_SCHEMA))) return;
    const { rows } = await db.executeSql(
      `select name, data, priority, singleton_key, start_after from ${PGBOSS_V10_SCHEMA}.job
        where state in ('created', 'retry', 'active') order by created_on`,
    );
    const byQueue = new Map<string, JobInsert[]>();
    let dropped = 0;
    for (const job of rows as V10Job[]) {
      if (!queues.has(job.name)) {
        dropped++;
        continue;
      }
      const list = byQueue.get(job.name) ?? [];
      list.push({
        data: job.data ?? {},
        priority: job.priority,
        startAfter: job.start_after,
        ...(job.singleton_key ? { singletonKey: job.singleton_key } : {}),
      });
      byQueue.set(job.name, list);
    }
    let moved = 0;
    for (const [name, jobs] of byQueue) {
      // Several jobs of one singleton key may not fit a stately queue's slots: the extra ones are
      // refused by its unique index, which is what the queue would have done with them anyway.
      const ids = await boss.insert(name, jobs, { db });
      moved += ids?.length ?? jobs.length;
    }
    await db.executeSql(`drop schema ${PGBOSS_V10_SCHEMA} cascade`);
    log.warn({ moved, dropped }, `pg-boss 10 jobs moved to pg-boss 12; ${PGBOSS_V10_SCHEMA} dropped`);
  });
}

export function createJobs(database: Database, log: FastifyBaseLogger): Jobs {
  const boss = new PgBoss({
    db: adapterFor(database),
    schema: PGBOSS_SCHEMA,
    ...(database.kind === 'pglite' ? { backend: 'pglite' as const } : {}),
    // Expired jobs and jobs whose worker stopped sending heartbeats are retried by this check.
    superviseIntervalSeconds: 30,
    monitorIntervalSeconds: 30,
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
      await setAsideV10Schema(database, log);
      await boss.start();
      started = true;
      for (const definition of definitions) {
        await boss.createQueue(definition.name, definition.queue);
        // createQueue leaves an existing queue as it is: options changed since are applied here
        // (the policy and partitioning of a queue are fixed at creation).
        const {
          policy: _policy,
          partition: _partition,
          deadLetter: _deadLetter,
          ...options
        } = definition.queue;
        if (Object.keys(options).length) await boss.updateQueue(definition.name, options);
      }
      await moveV10Jobs(database, boss, new Set(definitions.map((d) => d.name)), log);
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
      await boss.stop({ graceful: true, timeout: 15_000 });
    },
  };
}
