import { v7 as uuidv7 } from 'uuid';
import { companies } from '../../db/schema/platform.ts';
import type { Change } from '../../platform/events.ts';
import { COMPANY_ENTITY } from '../companies/repository.ts';
import { pendingUpdates, queueUpdate, writeBatch } from './bulk.ts';
import { dryRunReferences } from './keys-repository.ts';
import { emptyOutcome, fail, type ImportType, type InputRow } from './types.ts';
import { RowReader } from './values.ts';
import {
  archiveAbsentCompanies,
  type CompanyRow,
  companyAncestry,
  countAbsentCompanies,
  findCompaniesByExternalId,
  findCompaniesById,
  lockCompanyTree,
} from './write-repository.ts';

const PLAIN_FIELDS = ['name', 'email', 'phoneNumber', 'website', 'vatNumber'] as const;
type PlainField = (typeof PLAIN_FIELDS)[number];

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
    const found = lookup.size ? await findCompaniesByExternalId(c.tx, c.organisationId, [...lookup]) : [];
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
      dbParents = await companyAncestry(c.tx, c.organisationId, [
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
      reread: (ids) => findCompaniesById(c.tx, ids),
    });
  },

  async archiveAbsent(c, limit) {
    const rows = await archiveAbsentCompanies(c.tx, c, limit);
    return rows.map(
      (row): Change => ({ on: COMPANY_ENTITY, type: 'DELETE', entityId: row.id, snapshot: row }),
    );
  },

  countAbsent: (c) => countAbsentCompanies(c.tx, c),
};
