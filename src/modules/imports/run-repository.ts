/**
 * The SQL of an import's run (processor.ts): claiming it, the writes fenced by the worker that
 * holds it (`worker_id`), its creator's address and the sweep for imports without a live worker.
 */
import { and, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { type ImportStatus, imports } from '../../db/schema/imports.ts';
import { users } from '../../db/schema/platform.ts';
import type { ImportInsert } from './repository.ts';

/** The import held by this worker. */
const heldBy = (id: string, workerId: string) => and(eq(imports.id, id), eq(imports.workerId, workerId));

/** Whose import it is (whatever its organisation: the job names it by id). */
export async function findImportActor(db: Executor, id: string) {
  const [row] = await db
    .select({ organisationId: imports.organisationId, createdById: imports.createdById })
    .from(imports)
    .where(eq(imports.id, id));
  return row;
}

/** The import, locked for the rest of the transaction. */
export async function lockImport(tx: Tx, id: string) {
  const [row] = await tx.select().from(imports).where(eq(imports.id, id)).for('update');
  return row;
}

/** The import by id, whatever its organisation (the job names it by id). */
export async function findImportById(db: Executor, id: string) {
  const [row] = await db.select().from(imports).where(eq(imports.id, id));
  return row;
}

export async function findImportStatus(db: Executor, id: string) {
  const [row] = await db.select({ status: imports.status }).from(imports).where(eq(imports.id, id));
  return row;
}

/** Changes the import if this worker holds it, whatever its status. */
export async function updateHeldImport(
  db: Executor,
  id: string,
  workerId: string,
  values: Partial<ImportInsert>,
): Promise<void> {
  await db.update(imports).set(values).where(heldBy(id, workerId));
}

/** Changes the import if this worker holds it and it is unfinished (`statuses`); answers the row. */
export async function updateHeldUnfinishedImport(
  db: Executor,
  id: string,
  workerId: string,
  statuses: ImportStatus[],
  values: Partial<ImportInsert>,
) {
  const [row] = await db
    .update(imports)
    .set(values)
    .where(and(heldBy(id, workerId), inArray(imports.status, statuses)))
    .returning();
  return row;
}

/** Changes the import if this worker holds it in `status`; answers whether it did. */
export async function updateHeldImportIn(
  db: Executor,
  id: string,
  workerId: string,
  status: ImportStatus,
  values: Partial<ImportInsert>,
): Promise<boolean> {
  const [row] = await db
    .update(imports)
    .set(values)
    .where(and(heldBy(id, workerId), eq(imports.status, status)))
    .returning({ id: imports.id });
  return row !== undefined;
}

/** Changes the import if it is still in `status`; answers the row. */
export async function updateImportIfStatus(
  tx: Executor,
  id: string,
  status: ImportStatus,
  values: Partial<ImportInsert>,
) {
  const [row] = await tx
    .update(imports)
    .set(values)
    .where(and(eq(imports.id, id), eq(imports.status, status)))
    .returning();
  return row;
}

export async function findUserEmail(db: Executor, userId: string) {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row;
}

/** Frees every unfinished import from its worker (start-up on PGlite, which one process owns). */
export async function releaseUnfinishedImports(db: Executor, statuses: ImportStatus[]): Promise<void> {
  await db
    .update(imports)
    .set({ workerId: null, heartbeatAt: null })
    .where(and(inArray(imports.status, statuses), isNotNull(imports.workerId)));
}

/**
 * Unfinished imports (`statuses`) without a worker or whose worker showed no sign of life since
 * `staleBefore`; with `updatedBefore`, only those not changed since.
 */
export async function findImportsToRecover(
  db: Executor,
  statuses: ImportStatus[],
  staleBefore: Date,
  updatedBefore?: Date,
) {
  return db
    .select({ id: imports.id, status: imports.status, stats: imports.stats })
    .from(imports)
    .where(
      and(
        inArray(imports.status, statuses),
        or(isNull(imports.workerId), lt(imports.heartbeatAt, staleBefore)),
        updatedBefore ? lt(imports.updatedAt, updatedBefore) : undefined,
      ),
    );
}
