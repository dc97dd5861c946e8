import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { deletedAt, id, organisationId, timestamps } from './columns.ts';
import { organisations } from './platform.ts';

/**
 * The estimating reference catalogue of an organisation: one row per record of the engine's
 * `Catalogue` (products, materials, machines, rates...). `kind` names the collection, `data` holds
 * the record's own fields as the engine reads them; the row id is the record id briefs refer to.
 * One generic table rather than fourteen: the records are read together, always as a whole
 * catalogue, and their shape is owned by the pricing engine's types.
 */
export const catalogueEntries = pgTable(
  'catalogue_entries',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    kind: text('kind').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** The name per language (en, fr, de), beside `name`; a missing language shows `name`. */
    names: jsonb('names').$type<Partial<Record<string, string>>>().notNull().default({}),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    position: integer('position').notNull().default(0),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('catalogue_entries_code_live_uq')
      .on(t.organisationId, t.kind, t.code)
      .where(sql`${t.deletedAt} is null`),
    index('catalogue_entries_org_updated_idx').on(t.organisationId, t.updatedAt),
  ],
);

/**
 * Which version of the default catalogue an organisation's entries were seeded from or last
 * upgraded to (see src/modules/catalogue/upgrade.ts). No row = version 1, the catalogue every
 * organisation created before versioning was seeded with.
 */
export const catalogueVersions = pgTable('catalogue_versions', {
  organisationId: uuid('organisation_id')
    .primaryKey()
    .references(() => organisations.id),
  version: integer('version').notNull(),
  upgradedAt: timestamp('upgraded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
