import { v7 as uuidv7 } from 'uuid';
import { articles } from '../../db/schema/orders.ts';
import type { Change } from '../../platform/events.ts';
import { roundUnitPrice } from '../../platform/money.ts';
import { ARTICLE_ENTITY } from '../articles/repository.ts';
import { pendingUpdates, queueUpdate, writeBatch } from './bulk.ts';
import { unknownCompany } from './references.ts';
import { companiesByExternalId } from './repository.ts';
import { emptyOutcome, fail, type ImportType, type InputRow } from './types.ts';
import { RowReader } from './values.ts';
import { archiveAbsentArticles, countAbsentArticles, findArticlesByCode } from './write-repository.ts';

type ArticleRow = typeof articles.$inferSelect;

const NOT_NULL = ['name', 'stocked', 'quantity', 'enabled'] as const;

export const articlesImport: ImportType = {
  code: '18',
  name: 'articles',
  description: 'Catalogue articles, matched by code (case-insensitive)',
  entity: ARTICLE_ENTITY,
  customFieldEntity: 'article',
  columns: [
    {
      name: 'code',
      description: 'Required: the article code, the match key (case-insensitive, at most 200)',
    },
    { name: 'name', description: 'Required to create; cannot be emptied (at most 500)' },
    { name: 'description', description: 'At most 10,000 characters' },
    { name: 'price', description: 'Default unit price, at least 0 (kept to 4 decimals); empty clears it' },
    { name: 'stocked', description: 'true/false, 1/0 or yes/no (default false)' },
    { name: 'quantity', description: 'Stock quantity, at least 0 (default 0)' },
    { name: 'unit', description: 'Unit of the dimensions, e.g. mm (at most 50)' },
    { name: 'enabled', description: 'true/false, 1/0 or yes/no (default true)' },
    { name: 'companyExternalId', description: 'Required to create: external id of the article’s company' },
    { name: 'externalId', description: 'The article’s id in the ERP (at most 200)' },
  ],
  required: ['code'],

  keysOf(row: InputRow) {
    const code = row.values.code?.trim();
    return code && code.length <= 200 ? [code.toLowerCase()] : [];
  },

  async applyBatch(c, rows) {
    const out = emptyOutcome();
    const parsed = rows.map((input) => {
      const reader = new RowReader(input);
      const code = reader.text('code', 200);
      if (code === null) reader.error('code', 'is required');
      const fields = {
        name: reader.text('name', 500),
        description: reader.text('description', 10_000),
        price: reader.number('price', { minimum: 0 }),
        stocked: reader.boolean('stocked'),
        quantity: reader.number('quantity', { minimum: 0 }),
        unit: reader.text('unit', 50),
        enabled: reader.boolean('enabled'),
        externalId: reader.text('externalId', 200),
      };
      for (const field of NOT_NULL) if (fields[field] === null) reader.error(field, 'must not be empty');
      const companyKey = reader.text('companyExternalId', 200);
      if (companyKey === null)
        reader.error('companyExternalId', 'must not be empty: an article belongs to a company');
      if (code) out.keys.push(code.toLowerCase());
      return { input, reader, code, fields, companyKey };
    });

    const codes = parsed.flatMap((p) => (p.code ? [p.code.toLowerCase()] : []));
    const found = codes.length ? await findArticlesByCode(c.tx, c.organisationId, codes) : [];
    const existing = new Map<string, ArticleRow>(found.map((row) => [row.code.toLowerCase(), row]));
    const companyIds = await companiesByExternalId(
      c.tx,
      c.organisationId,
      parsed.flatMap((p) => (p.companyKey ? [p.companyKey] : [])),
    );

    const creates: Array<typeof articles.$inferInsert & { id: string }> = [];
    const pending = pendingUpdates();

    for (const p of parsed) {
      const { reader, code } = p;
      if (!code || reader.failed) {
        fail(out, reader);
        continue;
      }
      const current = existing.get(code.toLowerCase());
      let companyId: string | undefined;
      if (p.companyKey) {
        companyId = companyIds.get(p.companyKey);
        if (!companyId) reader.error('companyExternalId', unknownCompany(p.companyKey));
      }
      const customFields = reader.customFields(c.definitions, current?.customFields);
      if (!current && !reader.failed) {
        if (!p.fields.name) reader.error('name', 'is required to create an article');
        if (!companyId) reader.error('companyExternalId', 'is required to create an article');
      }
      if (reader.failed) {
        fail(out, reader);
        continue;
      }
      const price = p.fields.price == null ? p.fields.price : roundUnitPrice(p.fields.price);
      if (!current) {
        const id = uuidv7();
        creates.push({
          id,
          organisationId: c.organisationId,
          companyId: companyId!,
          code,
          name: p.fields.name!,
          description: p.fields.description ?? null,
          price: price ?? null,
          stocked: p.fields.stocked ?? false,
          quantity: p.fields.quantity ?? 0,
          unit: p.fields.unit ?? null,
          enabled: p.fields.enabled ?? true,
          externalId: p.fields.externalId ?? null,
          customFields: customFields ?? {},
          createdById: c.actorId,
        });
        out.createdKeys.push({ key: code.toLowerCase(), id });
        continue;
      }
      const next: Record<string, unknown> = { code };
      for (const [field, value] of Object.entries({ ...p.fields, price })) {
        if (value !== undefined) next[field] = value;
      }
      if (companyId) next.companyId = companyId;
      if (Object.keys(p.input.customFields).length) next.customFields = customFields;
      if (queueUpdate(pending, current, next).length === 0) out.unchanged++;
    }

    return writeBatch(c.tx, out, {
      table: articles,
      on: ARTICLE_ENTITY,
      organisationId: c.organisationId,
      creates,
      ...pending,
    });
  },

  async archiveAbsent(c, limit) {
    const rows = await archiveAbsentArticles(c.tx, c, limit);
    return rows.map(
      (row): Change => ({ on: ARTICLE_ENTITY, type: 'DELETE', entityId: row.id, snapshot: { ...row } }),
    );
  },

  countAbsent: (c) => countAbsentArticles(c.tx, c),
};
