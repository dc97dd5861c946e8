import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type StatusEntity, statuses } from '../../db/schema/organisation-data.ts';
import { entity } from '../../platform/events.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import { StatusSchema } from './schemas.ts';

export type { StatusEntity };

export const STATUS_ENTITY = entity('STATUS', 'statuses', 'statuses', { schema: StatusSchema });

/** The columns of a status that the API shows. */
export const statusColumns = {
  id: statuses.id,
  entity: statuses.entity,
  internalLabel: statuses.internalLabel,
  externalLabel: statuses.externalLabel,
  internalLabels: statuses.internalLabels,
  externalLabels: statuses.externalLabels,
  position: statuses.position,
  color: statuses.color,
  fgColor: statuses.fgColor,
  isDefault: statuses.isDefault,
  isCompleted: statuses.isCompleted,
  isOverdue: statuses.isOverdue,
  externalId: statuses.externalId,
  createdById: statuses.createdById,
  createdAt: statuses.createdAt,
  updatedAt: statuses.updatedAt,
};

export type StatusRow = {
  id: string;
  entity: StatusEntity;
  internalLabel: string;
  externalLabel: string;
  internalLabels: Record<string, string>;
  externalLabels: Record<string, string>;
  position: number;
  color: string | null;
  fgColor: string | null;
  isDefault: boolean;
  isCompleted: boolean;
  isOverdue: boolean;
  externalId: string | null;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const live = (organisationId: string) =>
  and(eq(statuses.organisationId, organisationId), isNull(statuses.deletedAt));

/** Any live status of the organisation by id, whatever its entity. */
export async function findStatus(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select(statusColumns)
    .from(statuses)
    .where(and(eq(statuses.id, id), live(organisationId)))
    .limit(1);
  return row as StatusRow | undefined;
}

/**
 * A live (not deleted) status of the organisation for the given entity, or undefined: what the
 * orders, quotes, ... modules check a `statusId` with before storing it (answer 400/404 on
 * undefined as fits the caller).
 */
export async function findLiveStatus(
  db: Executor,
  organisationId: string,
  entityName: StatusEntity,
  id: string,
): Promise<StatusRow | undefined> {
  const [row] = await db
    .select(statusColumns)
    .from(statuses)
    .where(and(eq(statuses.id, id), eq(statuses.entity, entityName), live(organisationId)))
    .limit(1);
  return row as StatusRow | undefined;
}

/** The default status of an entity (e.g. "Pending" for orders), or undefined when none is set. */
export async function findDefaultStatus(
  db: Executor,
  organisationId: string,
  entityName: StatusEntity,
): Promise<StatusRow | undefined> {
  const [row] = await db
    .select(statusColumns)
    .from(statuses)
    .where(and(eq(statuses.entity, entityName), eq(statuses.isDefault, true), live(organisationId)))
    .limit(1);
  return row as StatusRow | undefined;
}

/** The live statuses of an entity in workflow order. */
export async function listStatusesOfEntity(db: Executor, organisationId: string, entityName: StatusEntity) {
  const rows = await db
    .select(statusColumns)
    .from(statuses)
    .where(and(eq(statuses.entity, entityName), live(organisationId)))
    .orderBy(asc(statuses.position), asc(statuses.createdAt), asc(statuses.id));
  return rows as StatusRow[];
}

export async function findStatusByLabel(
  db: Executor,
  organisationId: string,
  entityName: StatusEntity,
  internalLabel: string,
) {
  const [row] = await db
    .select({ id: statuses.id })
    .from(statuses)
    .where(
      and(
        eq(statuses.entity, entityName),
        sql`lower(${statuses.internalLabel}) = ${internalLabel.toLowerCase()}`,
        live(organisationId),
      ),
    )
    .limit(1);
  return row;
}

export async function nextStatusPosition(db: Executor, organisationId: string, entityName: StatusEntity) {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${statuses.position}) + 1, 0)::int` })
    .from(statuses)
    .where(and(eq(statuses.entity, entityName), live(organisationId)));
  return row?.next ?? 0;
}

export async function countLiveStatuses(db: Executor, organisationId: string, entityName: StatusEntity) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(statuses)
    .where(and(eq(statuses.entity, entityName), live(organisationId)));
  return row?.count ?? 0;
}

/** A page of the organisation's live statuses (of one entity when given), with the total. */
export async function listLiveStatuses(
  db: Executor,
  organisationId: string,
  entityName: StatusEntity | undefined,
  page: Pick<PageRequest, 'orderBy' | 'limit' | 'offset'>,
) {
  const where = and(live(organisationId), entityName ? eq(statuses.entity, entityName) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select(statusColumns)
      .from(statuses)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(statuses).where(where),
  ]);
  return { rows: rows as StatusRow[], total: total?.count ?? 0 };
}

/** How many other live statuses the entity has. */
export async function countOtherLiveStatuses(
  db: Executor,
  organisationId: string,
  entityName: StatusEntity,
  exceptId: string,
) {
  const [others] = await db
    .select({ count: count() })
    .from(statuses)
    .where(and(live(organisationId), eq(statuses.entity, entityName), ne(statuses.id, exceptId)));
  return others?.count ?? 0;
}

export async function insertStatuses(db: Executor, values: (typeof statuses.$inferInsert)[]) {
  const rows = await db.insert(statuses).values(values).returning(statusColumns);
  return rows as StatusRow[];
}

/** Clears the live default of the entity (other than `exceptId`); returns the statuses cleared. */
export async function clearDefaultStatus(
  db: Executor,
  organisationId: string,
  entityName: StatusEntity,
  exceptId?: string,
) {
  const cleared = await db
    .update(statuses)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(
      and(
        live(organisationId),
        eq(statuses.entity, entityName),
        eq(statuses.isDefault, true),
        exceptId ? ne(statuses.id, exceptId) : undefined,
      ),
    )
    .returning(statusColumns);
  return cleared as StatusRow[];
}

/** Updates a live status of the organisation; undefined when it is not one. */
export async function updateLiveStatus(
  db: Executor,
  organisationId: string,
  id: string,
  values: Partial<typeof statuses.$inferInsert>,
) {
  const [row] = await db
    .update(statuses)
    .set(values)
    .where(and(eq(statuses.id, id), live(organisationId)))
    .returning(statusColumns);
  return row as StatusRow | undefined;
}
