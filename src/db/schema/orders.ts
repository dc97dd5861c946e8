import { relations, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { briefElements } from './briefs.ts';
import { deletedAt, id, organisationId, timestamps } from './columns.ts';
import type { LineSpecification, LineVariant } from './line-parts.ts';
import { addresses, comments, currencies, files, projects, statuses } from './organisation-data.ts';
import { companies, organisations } from './platform.ts';

const live = (t: { deletedAt: AnyPgColumn }) => sql`${t.deletedAt} is null`;

/**
 * Catalogue products. `briefElementId` links an element of a brief (or a standalone element) that
 * holds the production specification; it has no foreign key until the briefs tables exist.
 */
export const articles = pgTable(
  'articles',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    code: text('code').notNull(),
    description: text('description'),
    /** Default unit price, in the article's currency (4 decimals). */
    price: doublePrecision('price'),
    /** Stocked articles are available from `quantity`; others are produced on demand. */
    stocked: boolean('stocked').notNull().default(false),
    quantity: doublePrecision('quantity').notNull().default(0),
    /** Unit of the dimensions (mm, cm...). */
    unit: text('unit'),
    enabled: boolean('enabled').notNull().default(true),
    externalId: text('external_id'),
    briefElementId: uuid('brief_element_id').references(() => briefElements.id),
    currencyId: uuid('currency_id').references(() => currencies.id),
    previewFileId: uuid('preview_file_id').references(() => files.id),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('articles_code_live_uq').on(t.organisationId, sql`lower(${t.code})`).where(live(t)),
    index('articles_org_name_idx').on(t.organisationId, t.name).where(live(t)),
    index('articles_org_company_idx').on(t.organisationId, t.companyId).where(live(t)),
    index('articles_org_brief_element_idx').on(t.organisationId, t.briefElementId).where(live(t)),
    index('articles_org_updated_idx').on(t.organisationId, t.updatedAt),
  ],
);

/** Confirmed customer orders. Money is in the order's currency. */
export const orders = pgTable(
  'orders',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    companyId: uuid('company_id').references(() => companies.id),
    projectId: uuid('project_id').references(() => projects.id),
    statusId: uuid('status_id').references(() => statuses.id),
    currencyId: uuid('currency_id').references(() => currencies.id),
    shippingAddressId: uuid('shipping_address_id').references(() => addresses.id),
    /**
     * The order's number in its organisation (1, 2, 3...), what people call it on screen: set by the
     * `orders_assign_code` trigger on insert (every road that creates orders: API and imports), never
     * reused (deleted orders keep theirs).
     */
    code: integer('code'),
    externalId: text('external_id'),
    billedAmount: doublePrecision('billed_amount').notNull(),
    /** Sum of the live items' totalPrice (cents), kept by every item write under the order's row lock. */
    itemsTotal: doublePrecision('items_total').notNull().default(0),
    orderDate: timestamp('order_date', { withTimezone: true, mode: 'date' }),
    expectedDeliveryDate: timestamp('expected_delivery_date', { withTimezone: true, mode: 'date' }),
    actualDeliveryDate: timestamp('actual_delivery_date', { withTimezone: true, mode: 'date' }),
    trackingId: text('tracking_id'),
    /** The buyer's purchase order number (from the quote's acceptance when converted). */
    poNumber: text('po_number'),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // Every listing filters by tenant and live rows; each index serves one filter or sort of GET /orders
    // and ends with id, the tie-breaker of every sort, so a page (and its offset) can be read from
    // the index alone. status_id rides at the end of the others: the status filter, the usual
    // companion of any other filter, is then checked in the index too, without reading rows.
    // Creation and update times are stored newest first, the default sort (forward scans skip
    // offsets faster than backward ones).
    uniqueIndex('orders_org_code_uq').on(t.organisationId, t.code),
    uniqueIndex('orders_external_id_live_uq')
      .on(t.organisationId, t.externalId)
      .where(sql`${t.deletedAt} is null and ${t.externalId} is not null`),
    index('orders_org_created_idx')
      .on(t.organisationId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.statusId)
      .where(live(t)),
    index('orders_org_updated_idx')
      .on(t.organisationId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.statusId)
      .where(live(t)),
    index('orders_org_order_date_idx').on(t.organisationId, t.orderDate, t.id, t.statusId).where(live(t)),
    index('orders_org_expected_idx')
      .on(t.organisationId, t.expectedDeliveryDate, t.id, t.statusId)
      .where(live(t)),
    index('orders_org_actual_idx')
      .on(t.organisationId, t.actualDeliveryDate, t.id, t.statusId)
      .where(live(t)),
    index('orders_org_billed_idx').on(t.organisationId, t.billedAmount, t.id, t.statusId).where(live(t)),
    index('orders_org_company_created_idx')
      .on(
        t.organisationId,
        t.companyId,
        t.createdAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
        t.statusId,
      )
      .where(live(t)),
    index('orders_org_project_created_idx')
      .on(
        t.organisationId,
        t.projectId,
        t.createdAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
        t.statusId,
      )
      .where(live(t)),
    index('orders_org_status_created_idx')
      .on(t.organisationId, t.statusId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(live(t)),
    index('orders_org_creator_created_idx')
      .on(
        t.organisationId,
        t.createdById,
        t.createdAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
        t.statusId,
      )
      .where(live(t)),
    // Soft-deleted rows, for purges and audits.
    index('orders_org_deleted_idx').on(t.organisationId, t.deletedAt).where(sql`${t.deletedAt} is not null`),
  ],
);

/** Lines of an order; `parentId` groups children under a kit or group item of the same order. */
export const orderItems = pgTable(
  'order_items',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    articleId: uuid('article_id').references(() => articles.id),
    parentId: uuid('parent_id').references((): AnyPgColumn => orderItems.id),
    commentId: uuid('comment_id').references(() => comments.id),
    quantity: doublePrecision('quantity').notNull(),
    /** Unit price (4 decimals); null for a custom item priced only by its total. */
    unitPrice: doublePrecision('unit_price'),
    /** quantity x unitPrice, rounded to cents. */
    totalPrice: doublePrecision('total_price').notNull().default(0),
    unit: text('unit'),
    position: integer('position').notNull().default(1),
    /** What an item without article is (a brief's group, "Cutting die", "Delivery"). */
    name: text('name'),
    /** The engine's code of a service item (CUTTING_DIE, FLEXO_PLATES, DELIVERY), for its name per language. */
    code: text('code'),
    /** The decoration variants of the item (docs/orders.md): quantities and amounts derived on read. */
    variants: jsonb('variants').$type<LineVariant[]>(),
    /**
     * What an element item is made of (from its quote line: style, board, colours, finishes by
     * catalogue id and operation code), so that it is named per language (`localised`); null otherwise.
     */
    specification: jsonb('specification').$type<LineSpecification>(),
    /** Whether the quote line's name was typed by a user: shown as typed in every language. */
    customName: boolean('custom_name').notNull().default(false),
    externalId: text('external_id'),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index('order_items_order_position_idx').on(t.orderId, t.position, t.id).where(live(t)),
    index('order_items_org_article_idx').on(t.organisationId, t.articleId).where(live(t)),
    index('order_items_parent_idx').on(t.parentId).where(live(t)),
    index('order_items_org_updated_idx').on(t.organisationId, t.updatedAt),
  ],
);

// Relations for the relational query builder: the nested order read is one SQL statement.
export const articlesRelations = relations(articles, ({ one }) => ({
  company: one(companies, { fields: [articles.companyId], references: [companies.id] }),
  currency: one(currencies, { fields: [articles.currencyId], references: [currencies.id] }),
}));

export const ordersRelations = relations(orders, ({ one, many }) => ({
  company: one(companies, { fields: [orders.companyId], references: [companies.id] }),
  project: one(projects, { fields: [orders.projectId], references: [projects.id] }),
  status: one(statuses, { fields: [orders.statusId], references: [statuses.id] }),
  currency: one(currencies, { fields: [orders.currencyId], references: [currencies.id] }),
  items: many(orderItems),
}));

export const orderItemsRelations = relations(orderItems, ({ one }) => ({
  order: one(orders, { fields: [orderItems.orderId], references: [orders.id] }),
  article: one(articles, { fields: [orderItems.articleId], references: [articles.id] }),
}));
