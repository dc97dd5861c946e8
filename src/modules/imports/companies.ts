import { and, eq, isNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { type Executor, rowsOf } from '../../db/client.ts';
import { companies } from '../../db/schema/platform.ts';
import type { Change } from '../../platform/events.ts';
import { COMPANY_ENTITY, companyColumns } from '../companies/repository.ts';
import { pendingUpdates, queueUpdate, writeBatch } from './bulk.ts';
import { archiveAbsentRows, countAbsentRows, inList } from './bulk-repository.ts';
import { dryRunReferences } from './keys-repository.ts';
import { type BatchContext, emptyOutcome, fail, type ImportType, type InputRow } from './types.ts';
import { RowReader } from './values.ts';

type CompanyRow = Awaited<ReturnType<typeof selectCompanies>>[number];

const selectCompanies = (db: Executor) => db.select(companyColumns).from(companies);

const PLAIN_FIELDS = ['name', 'email', 'phoneNumber', 'website', 'vatNumber'] as const;
type PlainField = (typeof PLAIN_FIELDS)[number];

/** Serialises changes of the company tree of an organisation (the same lock as the companies service). */
async function lockCompanyTree(db: Executor, organisationId: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`company-tree:${organisationId}`}))`);
}

/** Each company of `ids` and its ancestors: id -> parent id. */
async function ancestry(
  db: Executor,
  organisationId: string,
  ids: string[],
): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const result = await db.execute<{ id: string; parent_id: string | null }>(sql`
    with recursive chain(id, parent_id, depth) as (
      select c.id, c.parent_id, 1 from companies c
       where c.organisation_id = ${organisationId} and ${inList(sql`c.id`, ids, 'uuid')}
      union
      select c.id, c.parent_id, chain.depth + 1 from companies c
        join chain on c.id = chain.parent_id
       where c.organisation_id = ${organisationId} and chain.depth < 1000
    )
    select distinct id, parent_id from chain`);
  const rows = rowsOf<{ id: string; parent_id: string | null }>(result);
  return new Map(rows.map((r) => [r.id, r.parent_id]));
}

/** Live companies with an external id that the file does not name, except ancestors of companies that stay. */
const absentCompanies = (c: BatchContext) => sql`
  with recursive absent as (
    select c.id from companies c
     where c.organisation_id = ${c.organisationId} and c.deleted_at is null and c.external_id is not null
       and not exists (select 1 from import_keys k where k.import_id = ${c.importId} and k.key = c.external_id)
  ), kept(id, depth) as (
    select c.parent_id, 1 from companies c
     where c.organisation_id = ${c.organisationId} and c.deleted_at is null and c.parent_id is not null
       and not exists (select 1 from absent a where a.id = c.id)
    union
    select p.parent_id, k.depth + 1 from kept k join companies p on p.id = k.id
     where p.parent_id is not null and k.depth < 100
  )
  select a.id from absent a where not exists (select 1 from kept k where k.id = a.id)`;

export const companiesImport: ImportType = {
  code: '16',
  name: 'companies',
  description: 'Companies, matched by external id',
  entity: COMPANY_ENTITY,
  customFieldEntity: 'company',
  columns: [
    {
      name: 'externalId',
      description: 'Required: the company’s id in the ERP, the match key (at most 200 characters)',
    },
    { name: 'name', description: 'Required to create a company; cannot be emptied (at most 300)' },
    {
      name: 'parentExternalId',
      description:
        'External id of the parent company: an existing company or one earlier in the file; empty removes the parent',
    },
    { name: 'email', description: 'E-mail address' },
    { name: 'phoneNumber', description: 'At most 50 characters' },
    { name: 'website', description: 'At most 500 characters' },
    { name: 'vatNumber', description: 'At most 50 characters' },
  ],
  required: ['externalId'],

  keysOf(row: InputRow) {
    const key = row.values.externalId?.trim();
    return key && key.length <= 200 ? [key] : [];
  },

  async applyBatch(c, rows) {
    const out = emptyOutcome();
    const parsed = rows.map((input) => {
      const reader = new RowReader(input);
      const key = reader.text('externalId', 200);
      if (key === null) reader.error('externalId', 'is required');
      const fields: Partial<Record<PlainField, string | null>> = {};
      fields.name = reader.text('name', 300);
      fields.email = reader.email('email');
      fields.phoneNumber = reader.text('phoneNumber', 50);
      fields.website = reader.text('website', 500);
      fields.vatNumber = reader.text('vatNumber', 50);
      const parentKey = reader.text('parentExternalId', 200);
      if (key) out.keys.push(key);
      return { input, reader, key, fields, parentKey };
    });

    const lookup = new Set<string>();
    for (const p of parsed) {
      if (p.key) lookup.add(p.key);
      if (p.parentKey) lookup.add(p.parentKey);
    }
    const found = lookup.size
      ? await selectCompanies(c.tx).where(
          and(
            eq(companies.organisationId, c.organisationId),
            isNull(companies.deletedAt),
            inList(companies.externalId, [...lookup]),
          ),
        )
      : [];
    const existing = new Map<string, CompanyRow>(found.map((row) => [row.externalId!, row]));
    const dryRefs = c.dryRun
      ? await dryRunReferences(
          c.tx,
          c.importId,
          [...lookup].filter((key) => !existing.has(key)),
        )
      : new Map<string, string>();

    // Re-parenting existing companies: load the ancestry the cycle check walks, under the tree lock.
    const reparents = c.columns.has('parentExternalId') && parsed.some((p) => p.key && existing.has(p.key));
    let dbParents = new Map<string, string | null>();
    if (reparents) {
      await lockCompanyTree(c.tx, c.organisationId);
      const parentIds = parsed.map((p) => (p.parentKey ? existing.get(p.parentKey)?.id : undefined));
      dbParents = await ancestry(c.tx, c.organisationId, [
        ...new Set(parentIds.filter((id): id is string => !!id)),
      ]);
    }
    const overlay = new Map<string, string | null>();
    const parentOf = (id: string) => (overlay.has(id) ? overlay.get(id) : dbParents.get(id));
    const makesCycle = (companyId: string, parentId: string) => {
      let current: string | null | undefined = parentId;
      for (let depth = 0; current && depth < 1000; depth++) {
        if (current === companyId) return true;
        current = parentOf(current);
      }
      return false;
    };

    // Records of the batch by external id as they will be after it (for parents earlier in the file).
    const assigned = new Map<string, string>();
    const creates: Array<typeof companies.$inferInsert & { id: string }> = [];
    const pending = pendingUpdates();

    for (const p of parsed) {
      const { reader, key } = p;
      if (!key || reader.failed) {
        fail(out, reader);
        continue;
      }
      const current = existing.get(key);
      let parentId: string | null | undefined;
      if (p.parentKey === null) parentId = null;
      else if (p.parentKey !== undefined) {
        if (p.parentKey === key) reader.error('parentExternalId', 'is the company itself');
        else {
          parentId = assigned.get(p.parentKey) ?? existing.get(p.parentKey)?.id ?? dryRefs.get(p.parentKey);
          if (!parentId) {
            reader.error(
              'parentExternalId',
              `no company has the external id "${p.parentKey}" (it must exist or come earlier in the file)`,
            );
          }
        }
      }
      const customFields = reader.customFields(c.definitions, current?.customFields);
      if (current && p.fields.name === null) reader.error('name', 'must not be empty');
      if (!current && !p.fields.name && !reader.failed)
        reader.error('name', 'is required to create a company');
      if (current && parentId && parentId !== current.parentId && makesCycle(current.id, parentId)) {
        reader.error('parentExternalId', 'would make the company hierarchy a cycle');
      }
      if (reader.failed) {
        fail(out, reader);
        continue;
      }
      const next: Record<string, unknown> = {};
      for (const field of PLAIN_FIELDS) if (p.fields[field] !== undefined) next[field] = p.fields[field];
      if (parentId !== undefined) next.parentId = parentId;
      if (Object.keys(p.input.customFields).length) next.customFields = customFields;

      if (!current) {
        const id = uuidv7();
        creates.push({
          id,
          organisationId: c.organisationId,
          name: p.fields.name!,
          externalId: key,
          parentId: parentId ?? null,
          email: p.fields.email ?? null,
          phoneNumber: p.fields.phoneNumber ?? null,
          website: p.fields.website ?? null,
          vatNumber: p.fields.vatNumber ?? null,
          customFields: customFields ?? {},
          createdById: c.actorId,
        });
        overlay.set(id, parentId ?? null);
        assigned.set(key, id);
        out.createdKeys.push({ key, id });
        continue;
      }
      assigned.set(key, current.id);
      if (queueUpdate(pending, current, next, { setAll: true }).length === 0) {
        out.unchanged++;
        continue;
      }
      if (parentId !== undefined) overlay.set(current.id, parentId);
    }

    return writeBatch(c.tx, out, {
      table: companies,
      on: COMPANY_ENTITY,
      organisationId: c.organisationId,
      creates,
      ...pending,
      reread: (ids) => selectCompanies(c.tx).where(inList(companies.id, ids)),
    });
  },

  async archiveAbsent(c, limit) {
    const ids = await archiveAbsentRows(c.tx, companies, absentCompanies(c), limit);
    if (ids.length === 0) return [];
    const rows = await selectCompanies(c.tx).where(inList(companies.id, ids));
    return rows.map(
      (row): Change => ({ on: COMPANY_ENTITY, type: 'DELETE', entityId: row.id, snapshot: row }),
    );
  },

  countAbsent: (c) => countAbsentRows(c.tx, absentCompanies(c)),
};
