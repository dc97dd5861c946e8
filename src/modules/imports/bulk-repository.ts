import { getTableColumns, getTableName, is, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';
import { rowsOf, type Tx } from '../../db/client.ts';
import { events } from '../../db/schema/platform.ts';
import type { Change, ChangeRunner, EntityDescriptor, EventRecorder } from '../../platform/events.ts';
import { eventRow } from '../../platform/events.ts';
import type { PendingUpdate } from './bulk.ts';

const EVENTS_PER_INSERT = 2000;

/**
 * Records the events of a batch in its transaction, as `record` would one by one, but in one
 * set-based insert per 2,000 events. The first event goes through `record` so the change runner
 * knows the organisation has new events and wakes webhook delivery after the commit.
 */
export async function recordAll(
  present: ChangeRunner['present'],
  tx: Tx,
  record: EventRecorder,
  organisationId: string,
  actorId: string | null,
  changes: Change[],
): Promise<void> {
  if (changes.length === 0) return;
  await record(changes[0]!);
  for (let start = 1; start < changes.length; start += EVENTS_PER_INSERT) {
    const slice = changes.slice(start, start + EVENTS_PER_INSERT);
    const rows = [];
    for (const change of slice)
      rows.push({
        id: uuidv7(),
        ...eventRow(change, change.organisationId ?? organisationId, actorId),
        // The entity's GET presenter, as `record` does.
        payload: await present(tx, change),
      });
    await bulkInsert(tx, events, rows);
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Updates many rows of `table` in one statement: `rows` carry `id` and the values of `fields`
 * (property names of the Drizzle table). Rows are matched by id within the organisation;
 * `updated_at` is set to the transaction time.
 */
export async function bulkUpdate(
  tx: Tx,
  table: PgTable,
  organisationId: string,
  fields: string[],
  rows: Array<Record<string, unknown> & { id: string }>,
): Promise<void> {
  if (rows.length === 0 || fields.length === 0) return;
  const specs = columnSpecs(table, fields);
  const set = specs.map((s) => `${quote(s.name)} = v.${quote(s.name)}`).join(', ');
  const definitions = specs.map((s) => `${quote(s.name)} ${s.type}`).join(', ');
  const json = recordset([{ field: 'id', name: 'id', type: 'uuid' }, ...specs], rows);
  await tx.execute(sql`update ${table} as t set ${sql.raw(set)}, "updated_at" = now()
    from jsonb_to_recordset(${json}::jsonb) as v("id" uuid, ${sql.raw(definitions)})
    where t."id" = v."id" and t."organisation_id" = ${organisationId}`);
}

function columnSpecs(table: PgTable, fields: string[]) {
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>;
  return fields.map((field) => {
    const column = columns[field];
    if (!column) throw new Error(`${getTableName(table)} has no column ${field}`);
    return { field, name: column.name, type: column.getSQLType() };
  });
}

/** Rows as the JSON array jsonb_to_recordset reads (column names as keys; dates as ISO strings). */
function recordset(specs: ReturnType<typeof columnSpecs>, rows: Array<Record<string, unknown>>): string {
  return JSON.stringify(
    rows.map((row) => {
      const item: Record<string, unknown> = {};
      // A missing key reads as SQL null (a JSON null would be a jsonb 'null' in jsonb columns).
      for (const spec of specs) {
        const value = row[spec.field];
        if (value !== null && value !== undefined) item[spec.name] = value;
      }
      return item;
    }),
  );
}

/**
 * Inserts many rows in one statement whose only parameter is the rows as JSON
 * (`insert ... select from jsonb_to_recordset`): building a multi-row VALUES list with Drizzle
 * costs more time than the database takes to insert the rows. The columns are those of the first
 * row (property names of the Drizzle table); the others take their database defaults. With
 * `returning`, answers the inserted rows as Drizzle would select them (every column).
 */
export async function bulkInsert<T extends PgTable>(
  tx: Tx,
  table: T,
  rows: Array<Record<string, unknown>>,
  options: { returning?: boolean } = {},
): Promise<T['$inferSelect'][]> {
  if (rows.length === 0) return [];
  const specs = columnSpecs(table, Object.keys(rows[0]!));
  const names = specs.map((s) => quote(s.name)).join(', ');
  const definitions = specs.map((s) => `${quote(s.name)} ${s.type}`).join(', ');
  const returning = options.returning
    ? sql.raw(
        ` returning ${Object.entries(getTableColumns(table) as Record<string, AnyPgColumn>)
          .map(([field, column]) => `${quote(column.name)} as ${quote(field)}`)
          .join(', ')}`,
      )
    : sql``;
  const result = await tx.execute(sql`insert into ${table} (${sql.raw(names)})
    select ${sql.raw(names)} from jsonb_to_recordset(${recordset(specs, rows)}::jsonb) as v(${sql.raw(definitions)})${returning}`);
  return rowsOf<T['$inferSelect']>(result);
}

/**
 * `column = any(...)` over a list passed as one JSON parameter (a list of a thousand keys as
 * a thousand bind parameters costs more to send and plan than the lookup itself); false for an
 * empty list. Uuid columns compare as uuid, anything else as text.
 */
export function inList(column: AnyPgColumn | SQL, values: readonly string[], type?: 'text' | 'uuid'): SQL {
  if (values.length === 0) return sql`false`;
  const sqlType = type ?? (is(column, PgColumn) && column.getSQLType() === 'uuid' ? 'uuid' : 'text');
  return sql`${column} = any(array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)::${sql.raw(sqlType)}))`;
}

/**
 * Archives (soft-deletes) at most `limit` of the rows `absent` selects (a query of ids: records
 * of the organisation an import with allowDelete did not name) and answers their ids.
 */
export async function archiveAbsentRows(tx: Tx, table: PgTable, absent: SQL, limit: number) {
  const result = await tx.execute<{ id: string }>(sql`
      update ${table} set deleted_at = now(), updated_at = now()
       where id in (select id from (${absent}) absent_ids limit ${limit})
       returning id`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** How many rows `absent` selects (what archiveAbsentRows would archive in all). */
export async function countAbsentRows(tx: Tx, absent: SQL): Promise<number> {
  const result = await tx.execute<{ count: number }>(
    sql`select count(*)::int as count from (${absent}) absent_ids`,
  );
  return Number(rowsOf<{ count: number }>(result)[0]?.count ?? 0);
}

/**
 * Writes a batch's new and changed rows with their events: inserts in statements of 2,000 rows
 * (the CREATE events carry the inserted rows), one update of `updateFields` for the changed rows,
 * then those rows read back by `reread` (every column by default) for the UPDATE events, with the
 * fields that changed.
 */
export async function writeRows(
  tx: Tx,
  batch: {
    table: PgTable & { id: AnyPgColumn };
    on: EntityDescriptor;
    organisationId: string;
    creates: Array<Record<string, unknown>>;
    updates: PendingUpdate[];
    updateFields: Iterable<string>;
    reread?: (ids: string[]) => Promise<Array<Record<string, unknown> & { id: string }>>;
  },
): Promise<Change[]> {
  const { table, on, creates, updates } = batch;
  const changes: Change[] = [];
  for (let start = 0; start < creates.length; start += 2000) {
    const inserted = await bulkInsert(tx, table, creates.slice(start, start + 2000), { returning: true });
    for (const row of inserted as Array<Record<string, unknown> & { id: string }>) {
      changes.push({ on, type: 'CREATE', entityId: row.id, snapshot: row });
    }
  }
  if (updates.length === 0) return changes;
  await bulkUpdate(
    tx,
    table,
    batch.organisationId,
    [...batch.updateFields],
    updates.map((u) => ({ ...u.values, id: u.id })),
  );
  const ids = updates.map((u) => u.id);
  const after = batch.reread
    ? await batch.reread(ids)
    : ((await tx.select().from(table).where(inList(table.id, ids))) as Array<
        Record<string, unknown> & { id: string }
      >);
  const changedById = new Map(updates.map((u) => [u.id, u.changed]));
  for (const row of after) {
    changes.push({
      on,
      type: 'UPDATE',
      entityId: row.id,
      snapshot: row,
      updatedColumns: changedById.get(row.id),
    });
  }
  return changes;
}
