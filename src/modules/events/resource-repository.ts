import { and, eq, getTableColumns, getTableName, is, isNull, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../db/schema/index.ts';
import { organisations } from '../../db/schema/platform.ts';
import type { Registry, ResourceLoader } from '../../platform/registry.ts';

/**
 * Event resources: `GET /api/events/ressources/{eventId}` answers the current state of the entity
 * an event concerns, found by the event's `tableName` and `entityId` in the caller's organisation.
 *
 * Every table of the schema that has `id` and `organisationId` columns is served without any
 * registration: the live row (`deletedAt` null, or `revokedAt` null for tables without deletedAt),
 * without secret-looking columns (password/token hashes, secrets, credentials). A module registers a
 * loader in the app's registry, from its module.ts `wire`, when it wants another shape (nested
 * items, masked fields) or its table has no such columns:
 *
 *   ctx.registry.eventResource('orders', async (db, organisationId, id) => findOrderWithItems(db, organisationId, id));
 *   ctx.registry.eventResource('order_items', tableResource(orderItems, { omit: ['internalNote'] }));
 *
 * A loader returns undefined when the entity is deleted or belongs to another organisation (404).
 */
export type { ResourceLoader };

/** Column keys never served by the generic loader. */
const SECRET_KEY = /password|tokenhash|secret|credential/i;

type TableResourceOptions = {
  /** Property names (camelCase) to leave out, in addition to the secret-looking ones. */
  omit?: string[];
  /** The organisation condition (default: `organisationId = caller's`). */
  tenant?: (organisationId: string) => SQL;
};

/** A loader reading one live row of a Drizzle table by id, scoped to the organisation. */
export function tableResource(table: PgTable, options: TableResourceOptions = {}): ResourceLoader {
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>;
  const omit = new Set(options.omit ?? []);
  const selected = Object.fromEntries(
    Object.entries(columns).filter(([key]) => !omit.has(key) && !SECRET_KEY.test(key)),
  );
  const idColumn = columns.id;
  if (!idColumn) throw new Error(`${getTableName(table)} has no id column`);
  const tenant =
    options.tenant ??
    (columns.organisationId
      ? (organisationId: string) => eq(columns.organisationId!, organisationId)
      : undefined);
  if (!tenant) throw new Error(`${getTableName(table)} has no organisationId: give a tenant condition`);
  const live = columns.deletedAt
    ? isNull(columns.deletedAt)
    : columns.revokedAt
      ? isNull(columns.revokedAt)
      : undefined;
  return async (db, organisationId, entityId) => {
    const [row] = await db
      .select(selected)
      .from(table)
      .where(and(eq(idColumn, entityId), tenant(organisationId), live))
      .limit(1);
    return row as Record<string, unknown> | undefined;
  };
}

let discovered: Map<string, PgTable> | undefined;
function schemaTables(): Map<string, PgTable> {
  if (!discovered) {
    discovered = new Map();
    for (const value of Object.values(schema) as unknown[]) {
      if (is(value, PgTable)) discovered.set(getTableName(value), value);
    }
  }
  return discovered;
}

const generic = new Map<string, ResourceLoader | null>();

/** The loader for a table name: registered, else generic when the table has id and organisationId. */
export function eventResourceLoader(registry: Registry, tableName: string): ResourceLoader | undefined {
  const loader = registry.registeredEventResource(tableName);
  if (loader) return loader;
  if (!generic.has(tableName)) {
    const table = schemaTables().get(tableName);
    const columns = table ? (getTableColumns(table) as Record<string, unknown>) : {};
    generic.set(tableName, table && columns.id && columns.organisationId ? tableResource(table) : null);
  }
  return generic.get(tableName) ?? undefined;
}

// The organisation is its own tenant (the organisations module registers it).
export const organisationResource = tableResource(organisations, {
  tenant: (organisationId) => eq(organisations.id, organisationId),
});
