import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.ts';
import { addresses, comments, currencies, projects, statuses } from '../db/schema/organisation-data.ts';
import { companies, users } from '../db/schema/platform.ts';
import { AppError } from './errors.ts';

/**
 * Checks of the ids a request body refers to. A missing, deleted or other-tenant record answers
 * 422 `invalid_reference` with a pointer to the field: the resource of the path exists, the body
 * names something that does not.
 *
 * Naming, here and in the modules: `live<Thing>(db, organisationId, id, pointer)` answers the live
 * row or throws that 422; `find<Thing>` / `findLive<Thing>` answer the row or undefined and leave
 * the answer to the caller.
 */
export const invalidReference = (pointer: string, what: string) =>
  new AppError('invalid_reference', `${pointer} names no ${what} of this organisation`, {
    issues: [{ pointer, message: `names no live ${what} of this organisation`, in: 'body' }],
  });

export async function liveCompany(db: Executor, organisationId: string, id: string, pointer = '/companyId') {
  const [row] = await db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(
      and(eq(companies.id, id), eq(companies.organisationId, organisationId), isNull(companies.deletedAt)),
    )
    .limit(1);
  if (!row) throw invalidReference(pointer, 'company');
  return row;
}

export async function liveProject(db: Executor, organisationId: string, id: string, pointer = '/projectId') {
  const [row] = await db
    .select({ id: projects.id, companyId: projects.companyId })
    .from(projects)
    .where(and(eq(projects.id, id), eq(projects.organisationId, organisationId), isNull(projects.deletedAt)))
    .limit(1);
  if (!row) throw invalidReference(pointer, 'project');
  return row;
}

/** The organisation's default order status (`isDefault`), if it has one. */
export async function defaultOrderStatus(db: Executor, organisationId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: statuses.id })
    .from(statuses)
    .where(
      and(
        eq(statuses.organisationId, organisationId),
        eq(statuses.entity, 'order'),
        eq(statuses.isDefault, true),
        isNull(statuses.deletedAt),
      ),
    )
    .orderBy(statuses.position)
    .limit(1);
  return row?.id ?? null;
}

export async function liveCurrency(
  db: Executor,
  organisationId: string,
  id: string,
  pointer = '/currencyId',
) {
  const [row] = await db
    .select({ id: currencies.id })
    .from(currencies)
    .where(
      and(eq(currencies.id, id), eq(currencies.organisationId, organisationId), isNull(currencies.deletedAt)),
    )
    .limit(1);
  if (!row) throw invalidReference(pointer, 'currency');
  return row;
}

export async function liveAddress(
  db: Executor,
  organisationId: string,
  id: string,
  pointer = '/shippingAddressId',
) {
  const [row] = await db
    .select({ id: addresses.id, companyId: addresses.companyId })
    .from(addresses)
    .where(
      and(eq(addresses.id, id), eq(addresses.organisationId, organisationId), isNull(addresses.deletedAt)),
    )
    .limit(1);
  if (!row) throw invalidReference(pointer, 'address');
  return row;
}

export async function liveComment(db: Executor, organisationId: string, id: string, pointer = '/commentId') {
  const [row] = await db
    .select({ id: comments.id })
    .from(comments)
    .where(and(eq(comments.id, id), eq(comments.organisationId, organisationId), isNull(comments.deletedAt)))
    .limit(1);
  if (!row) throw invalidReference(pointer, 'comment');
  return row;
}

/**
 * Users of the organisation's staff (live, any role but `contact`): managers, collaborators and
 * authors named by HIPE clients. Throws 422 `invalid_reference` at the pointer of the first one missing.
 */
export async function liveStaffUsers(
  db: Executor,
  organisationId: string,
  ids: readonly string[],
  pointerFor: (index: number) => string,
) {
  if (ids.length === 0) return;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(users.id, [...ids]),
        eq(users.organisationId, organisationId),
        isNull(users.deletedAt),
        ne(users.role, 'contact'),
      ),
    );
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) {
    throw invalidReference(pointerFor(missing), 'staff user');
  }
}

/** A tenant table with an ERP identifier unique among its live rows. */
type ExternallyKeyed = PgTable & {
  id: PgColumn;
  organisationId: PgColumn;
  externalId: PgColumn;
  deletedAt: PgColumn;
};

/** Whether a live row of the organisation (other than `exceptId`) already has this external id. */
export async function externalIdTaken(
  db: Executor,
  table: ExternallyKeyed,
  organisationId: string,
  externalId: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: table.id })
    .from(table as PgTable)
    .where(
      and(
        eq(table.organisationId, organisationId),
        eq(table.externalId, externalId),
        isNull(table.deletedAt),
        exceptId ? ne(table.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}
