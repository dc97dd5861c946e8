/**
 * What an export writes: for each import type, the organisation's live records in the columns
 * that import reads (so an export can be edited and imported back), then one `cf.<key>` column per
 * live custom field definition of the entity, written as the import reads it (booleans
 * true/false, multi-select values joined by `|`, empty when unset). Text cells that a spreadsheet
 * would run as a formula are escaped (`spreadsheetSafe`); the import drops the escape again.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.ts';
import { liveDefinitions } from '../custom-fields/validate.ts';
import { IMPORT_TYPES } from '../imports/import-types.ts';

export type ExportFilter = {
  organisationId: string;
  startDate: Date | null;
  endDate: Date | null;
  userIds: string[];
};

const iso = (value: unknown) =>
  value instanceof Date ? value.toISOString() : value == null ? '' : String(value);

/** `alias.created_at` / `created_by_id` bounds of the filter. */
function bounds(alias: string, filter: ExportFilter): SQL {
  const a = sql.raw(alias);
  const parts: SQL[] = [sql`${a}.organisation_id = ${filter.organisationId}`, sql`${a}.deleted_at is null`];
  if (filter.startDate) parts.push(sql`${a}.created_at >= ${filter.startDate.toISOString()}`);
  if (filter.endDate) parts.push(sql`${a}.created_at < ${filter.endDate.toISOString()}`);
  if (filter.userIds.length) {
    parts.push(
      sql`${a}.created_by_id in (${sql.join(
        filter.userIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
  }
  return sql.join(parts, sql` and `);
}

/**
 * CSV (formula) injection, OWASP: a spreadsheet runs a cell starting with `=`, `+`, `-` or `@` as
 * a formula (tab and carriage return lead to the same on some), so such a text cell is written
 * with a leading `'`, which spreadsheets read as "text follows". Cells that already start with
 * quotes before such a character get one more, so the import's rule (drop one leading `'` before
 * `'*[=+-@\t\r]`, src/modules/imports/csv.ts `unescapeCell`) gives every text back exactly.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** A number as the database writes it (`-12.5`, `3e-7`): a spreadsheet reads it as that number. */
const NUMBER = /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i;

/**
 * The cell as written: a number column's number as it is (a negative amount stays a number), any
 * other cell escaped when it starts like a formula (also a number column's cell that is not a
 * number, which the database does not produce).
 */
export function spreadsheetSafe(text: string, numeric = false): string {
  if (numeric && NUMBER.test(text)) return text;
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The columns of each export type that hold numbers (the others hold text, dates, booleans). */
const NUMBER_COLUMNS: Record<string, ReadonlySet<string>> = {
  '18': new Set(['price', 'quantity']),
  '19': new Set(['billedAmount']),
};

/** A custom field value as the import reads it back. */
const cell = (value: unknown) => (Array.isArray(value) ? value.join('|') : iso(value));

/** The custom field entity of each export type (as its import). */
const CUSTOM_FIELD_ENTITY: Record<string, 'company' | 'contact' | 'article' | 'order'> = {
  '16': 'company',
  '17': 'contact',
  '18': 'article',
  '19': 'order',
};

const QUERIES: Record<string, (f: ExportFilter) => SQL> = {
  '16': (f) => sql`select c.external_id as "externalId", c.name, p.external_id as "parentExternalId", c.email,
      c.phone_number as "phoneNumber", c.website, c.vat_number as "vatNumber", c.custom_fields as "customFields"
    from companies c left join companies p on p.id = c.parent_id
    where ${bounds('c', f)} order by c.created_at, c.id`,
  '17': (
    f,
  ) => sql`select u.external_id as "externalId", u.email, u.first_name as "firstName", u.last_name as "lastName",
      u.phone_number as "phoneNumber",
      coalesce((select string_agg(c.external_id, '|' order by c.external_id) from company_users cu
        join companies c on c.id = cu.company_id and c.deleted_at is null and c.external_id is not null
        where cu.user_id = u.id), '') as "companyExternalIds", u.custom_fields as "customFields"
    from users u where ${bounds('u', f)} and u.role = 'contact' order by u.created_at, u.id`,
  '18': (f) => sql`select a.code, a.name, a.description, a.price, a.stocked, a.quantity, a.unit, a.enabled,
      c.external_id as "companyExternalId", a.external_id as "externalId", a.custom_fields as "customFields"
    from articles a left join companies c on c.id = a.company_id
    where ${bounds('a', f)} order by a.created_at, a.id`,
  '19': (
    f,
  ) => sql`select o.external_id as "externalId", c.external_id as "companyExternalId", o.billed_amount as "billedAmount",
      o.order_date as "orderDate", o.expected_delivery_date as "expectedDeliveryDate",
      o.actual_delivery_date as "actualDeliveryDate", o.tracking_id as "trackingId", s.internal_label as status,
      o.custom_fields as "customFields"
    from orders o left join companies c on c.id = o.company_id left join statuses s on s.id = o.status_id
    where ${bounds('o', f)} order by o.created_at, o.id`,
};

/** The header and the rows (cells as text) of an export of this type. */
export async function exportRows(db: Executor, type: string, filter: ExportFilter) {
  const importType = IMPORT_TYPES.find((t) => t.code === type);
  const query = QUERIES[type];
  if (!importType || !query) throw new Error(`no export for type ${type}`);
  const definitions = await liveDefinitions(db, filter.organisationId, CUSTOM_FIELD_ENTITY[type]!);
  const keys = [...definitions.keys()];
  const header = [...importType.columns.map((c) => c.name), ...keys.map((key) => `cf.${key}`)];
  const numbers = NUMBER_COLUMNS[type] ?? new Set<string>();
  const result = await db.execute(query(filter));
  const rows = rowsOf<Record<string, unknown>>(result).map((row) => {
    const custom = (row.customFields ?? {}) as Record<string, unknown>;
    return [
      ...importType.columns.map((column) => spreadsheetSafe(iso(row[column.name]), numbers.has(column.name))),
      ...keys.map((key) => spreadsheetSafe(cell(custom[key]), definitions.get(key)!.type === 'number')),
    ];
  });
  return { header, rows };
}
