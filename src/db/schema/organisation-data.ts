import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { deletedAt, id, organisationId, timestamps } from './columns.ts';
import { companies, organisations } from './platform.ts';

export const projects = pgTable(
  'projects',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    code: text('code'),
    description: text('description'),
    externalId: text('external_id'),
    /** A status of entity `project` (configurable per organisation). */
    statusId: uuid('status_id').references(() => statuses.id),
    /** The user of the organisation who manages the project (HIPE `managerId`). */
    managerId: uuid('manager_id'),
    dueDate: timestamp('due_date', { withTimezone: true, mode: 'date' }),
    /** Estimated value of the project, in the organisation's base currency. */
    estimatedValues: doublePrecision('estimated_values'),
    /** Sales pipeline and step of a HIPE client (identifiers of its CRM, stored as given). */
    opportunityPipelineId: text('opportunity_pipeline_id'),
    opportunityStepId: text('opportunity_step_id'),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index('projects_org_company_idx').on(t.organisationId, t.companyId),
    index('projects_org_updated_idx').on(t.organisationId, t.updatedAt),
    uniqueIndex('projects_external_id_live_uq')
      .on(t.organisationId, t.externalId)
      .where(sql`${t.deletedAt} is null and ${t.externalId} is not null`),
  ],
);

export const ADDRESS_TYPES = ['billing', 'shipping', 'other'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

export const addresses = pgTable(
  'addresses',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    type: text('type').$type<AddressType>().notNull().default('shipping'),
    name: text('name'),
    street1: text('street1').notNull(),
    street2: text('street2'),
    street3: text('street3'),
    postcode: text('postcode'),
    city: text('city').notNull(),
    region: text('region'),
    countryCode: text('country_code').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    /** Order among the company's addresses (HIPE `position`). */
    position: integer('position'),
    externalId: text('external_id'),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index('addresses_org_company_idx').on(t.organisationId, t.companyId),
    // At most one default address per company and type.
    uniqueIndex('addresses_default_live_uq')
      .on(t.companyId, t.type)
      .where(sql`${t.isDefault} and ${t.deletedAt} is null`),
  ],
);

/** Entities that have configurable statuses. */
export const STATUS_ENTITIES = [
  'order',
  'quote',
  'brief',
  'article',
  'project',
  // Entities of HIPE clients (statuses are kept for them; no record of ours uses them yet).
  'company',
  'task',
  'configuration',
  'submission',
  'file',
] as const;
export type StatusEntity = (typeof STATUS_ENTITIES)[number];

export const statuses = pgTable(
  'statuses',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    entity: text('entity').$type<StatusEntity>().notNull(),
    internalLabel: text('internal_label').notNull(),
    externalLabel: text('external_label').notNull(),
    position: integer('position').notNull().default(0),
    color: text('color'),
    /** Text colour (HIPE `fgColor`); `color` is the background. */
    fgColor: text('fg_color'),
    isDefault: boolean('is_default').notNull().default(false),
    isCompleted: boolean('is_completed').notNull().default(false),
    isOverdue: boolean('is_overdue').notNull().default(false),
    externalId: text('external_id'),
    /** The labels per language (`{en, fr}`); internal_label/external_label hold the main one. */
    internalLabels: jsonb('internal_labels').$type<Record<string, string>>().notNull().default({}),
    externalLabels: jsonb('external_labels').$type<Record<string, string>>().notNull().default({}),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index('statuses_org_entity_idx').on(t.organisationId, t.entity, t.position),
    uniqueIndex('statuses_label_live_uq')
      .on(t.organisationId, t.entity, sql`lower(${t.internalLabel})`)
      .where(sql`${t.deletedAt} is null`),
    // At most one default status per organisation and entity.
    uniqueIndex('statuses_default_live_uq')
      .on(t.organisationId, t.entity)
      .where(sql`${t.isDefault} and ${t.deletedAt} is null`),
  ],
);

export const currencies = pgTable(
  'currencies',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    /** ISO 4217 code, e.g. EUR. */
    code: text('code').notNull(),
    name: text('name'),
    symbol: text('symbol').notNull(),
    /** Units of this currency per one unit of the organisation's base currency. */
    rate: numeric('rate', { precision: 18, scale: 8, mode: 'number' }).notNull().default(1),
    /** ISO 3166-1 alpha-2 code of the country or zone (HIPE `countryCode`, e.g. `eu`). */
    countryCode: text('country_code'),
    externalId: text('external_id'),
    enabled: boolean('enabled').notNull().default(true),
    /** The currency proposed by default for new records (at most one per organisation). */
    isDefault: boolean('is_default').notNull().default(false),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('currencies_code_live_uq').on(t.organisationId, t.code).where(sql`${t.deletedAt} is null`),
    uniqueIndex('currencies_default_live_uq')
      .on(t.organisationId)
      .where(sql`${t.isDefault} and ${t.deletedAt} is null`),
  ],
);

export const CUSTOM_FIELD_ENTITIES = [
  'company',
  'contact',
  'order',
  'article',
  'project',
  'quote',
  'order_item',
] as const;
export type CustomFieldEntity = (typeof CUSTOM_FIELD_ENTITIES)[number];
export const CUSTOM_FIELD_TYPES = ['boolean', 'string', 'select', 'multi-select', 'number'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export const customFieldDefinitions = pgTable(
  'custom_field_definitions',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    entity: text('entity').$type<CustomFieldEntity>().notNull(),
    /** The property name in `customFields` objects. */
    key: text('key').notNull(),
    label: text('label').notNull(),
    type: text('type').$type<CustomFieldType>().notNull(),
    /** Allowed values for select and multi-select fields. */
    options: jsonb('options').$type<string[]>(),
    required: boolean('required').notNull().default(false),
    position: integer('position').notNull().default(0),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('custom_field_definitions_key_live_uq')
      .on(t.organisationId, t.entity, t.key)
      .where(sql`${t.deletedAt} is null`),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Entities that own files and comments. */
export const ATTACHABLE_ENTITIES = [
  'order',
  'article',
  'project',
  'quote',
  'brief',
  'company',
  'import',
  'export',
  /** The seller's own files (its logo), entityId = the organisation's id. */
  'organisation',
] as const;
export type AttachableEntity = (typeof ATTACHABLE_ENTITIES)[number];

/** File metadata; the bytes live in file_contents so listings never read them. */
export const files = pgTable(
  'files',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    entity: text('entity').$type<AttachableEntity>().notNull(),
    entityId: uuid('entity_id').notNull(),
    filename: text('filename').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    /** Free label, e.g. a language for quote PDFs ("fr") or "preview" for an article image. */
    label: text('label'),
    /**
     * What a stored rendering was made from, to know when it is stale (quote PDFs: the quote's
     * revision, the language and the template version; docs/quotes.md, "Stored PDFs").
     */
    renderKey: text('render_key'),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [index('files_org_entity_idx').on(t.organisationId, t.entity, t.entityId)],
);

export const fileContents = pgTable('file_contents', {
  fileId: uuid('file_id')
    .primaryKey()
    .references(() => files.id),
  content: bytea('content').notNull(),
});

export const comments = pgTable(
  'comments',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    entity: text('entity').$type<AttachableEntity>().notNull(),
    entityId: uuid('entity_id').notNull(),
    body: text('body').notNull(),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [index('comments_org_entity_idx').on(t.organisationId, t.entity, t.entityId, t.createdAt)],
);
