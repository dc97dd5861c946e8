import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { briefElements, briefs } from './briefs.ts';
import { deletedAt, id, organisationId, timestamps } from './columns.ts';
import type { LineSpecification, LineTooling, LineVariant } from './line-parts.ts';
import { articles, orders } from './orders.ts';
import { addresses, projects } from './organisation-data.ts';
import type { Incoterm } from './organisation-settings.ts';
import { companies, organisations, users } from './platform.ts';

const live = (t: { deletedAt: AnyPgColumn }) => sql`${t.deletedAt} is null`;

/** Lifecycle of a quote (docs/quotes.md): draft -> published -> signed | rejected | expired. */
export const QUOTE_STATES = ['draft', 'published', 'signed', 'rejected', 'expired'] as const;
export type QuoteState = (typeof QUOTE_STATES)[number];

/**
 * How VAT applies to a quote (docs/quotes.md, "VAT and terms"): `standard` at `vatRate`;
 * `reverse_charge` (customer in another EU country with a VAT number), `exempt` (the customer's
 * exemption), `export` (customer outside the EU) at 0; `none` while the seller has no VAT rate.
 */
export const VAT_TREATMENTS = ['standard', 'reverse_charge', 'exempt', 'export', 'none'] as const;
export type VatTreatment = (typeof VAT_TREATMENTS)[number];

/**
 * A price-break column of a quote line (docs/quotes.md, "Price breaks"): the line offered at
 * another quantity, priced like the line (the engine at that quantity for a brief element, the
 * unit price for an article), money in cents under the rounding rule. `engineCost` is staff only.
 */
export type PriceBreak = {
  id: string;
  quantity: number;
  unitPrice: number;
  amount: number;
  discount: number;
  toolingCost: number;
  deliveryCost: number;
  totalPrice: number;
  engineAmount: number;
  engineCost: number | null;
};

/** Where an item's unit price comes from: the brief's prediction, the article, or the request. */
export const PRICE_SOURCES = ['prediction', 'article', 'manual'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

/**
 * Customer quotations. `code` (Q-2026-00042) is assigned when the quote is published, from the
 * organisation's counter of that year (quote_code_counters) inside the publishing transaction, so
 * codes are unique, sequential and gapless. Money is in `currency`; the totals are the sums of the
 * live root items, recomputed in the transaction of every item change.
 */
export const quotes = pgTable(
  'quotes',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    /** Null until published. */
    code: text('code'),
    codeYear: integer('code_year'),
    codeNumber: integer('code_number'),
    name: text('name').notNull(),
    state: text('state').$type<QuoteState>().notNull().default('draft'),
    /** 1 for an original; a revision has its source's lineage maximum + 1. */
    version: integer('version').notNull().default(1),
    /** The quote this one revises. */
    parentQuoteId: uuid('parent_quote_id').references((): AnyPgColumn => quotes.id),
    /** The original of the lineage (null for an original itself). */
    rootQuoteId: uuid('root_quote_id').references((): AnyPgColumn => quotes.id),
    projectId: uuid('project_id').references(() => projects.id),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    /** A user with role `contact` linked to the company. */
    contactId: uuid('contact_id').references(() => users.id),
    addressId: uuid('address_id').references(() => addresses.id),
    email: text('email'),
    phoneNumber: text('phone_number'),
    receiverName: text('receiver_name'),
    validUntil: timestamp('valid_until', { withTimezone: true, mode: 'date' }),
    currency: text('currency').notNull(),
    totalPrice: doublePrecision('total_price').notNull().default(0),
    toolingCost: doublePrecision('tooling_cost').notNull().default(0),
    deliveryCost: doublePrecision('delivery_cost').notNull().default(0),
    /** Commercial terms, defaulted from the organisation settings when the quote is created. */
    paymentTerms: text('payment_terms'),
    paymentDays: integer('payment_days'),
    incoterm: text('incoterm').$type<Incoterm>(),
    incotermPlace: text('incoterm_place'),
    deliveryTerms: text('delivery_terms'),
    /** The buyer's purchase order number. */
    poNumber: text('po_number'),
    /** The VAT decided for the customer (percent; null while `vatTreatment` is `none`). */
    vatRate: doublePrecision('vat_rate'),
    vatTreatment: text('vat_treatment').$type<VatTreatment>().notNull().default('none'),
    /** The customer's exemption reason, printed when `vatTreatment` is `exempt`. */
    vatExemptionReason: text('vat_exemption_reason'),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    signedAt: timestamp('signed_at', { withTimezone: true, mode: 'date' }),
    rejectedAt: timestamp('rejected_at', { withTimezone: true, mode: 'date' }),
    rejectionReason: text('rejection_reason'),
    expiredAt: timestamp('expired_at', { withTimezone: true, mode: 'date' }),
    /** Who accepted or declined the quote. */
    respondedById: uuid('responded_by_id'),
    /** The order made from the signed quote. */
    orderId: uuid('order_id').references(() => orders.id),
    /**
     * Lines with artwork whose latest proof is not approved (kept by the proofs module in the
     * transaction of every proof change): the lifecycle's `convert` guard reads it (docs/proofs.md).
     */
    proofsPending: integer('proofs_pending').notNull().default(0),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('quotes_org_code_uq').on(t.organisationId, t.code).where(sql`${t.code} is not null`),
    uniqueIndex('quotes_order_uq').on(t.orderId).where(sql`${t.orderId} is not null`),
    // The list's sorts by time, newest first as the list defaults to (a forward scan), ending with
    // the tie-breaker and then what visibility checks read (state for contacts, the company for
    // company-scoped roles): the ids of a page come from an index-only scan (issue 31).
    index('quotes_org_updated_idx')
      .on(t.organisationId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.state, t.companyId)
      .where(live(t)),
    index('quotes_org_created_idx')
      .on(t.organisationId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.state, t.companyId)
      .where(live(t)),
    index('quotes_org_company_idx').on(t.organisationId, t.companyId, t.updatedAt).where(live(t)),
    index('quotes_org_project_idx').on(t.organisationId, t.projectId, t.updatedAt).where(live(t)),
    index('quotes_org_state_idx').on(t.organisationId, t.state, t.updatedAt).where(live(t)),
    index('quotes_root_idx').on(t.rootQuoteId),
    // The expiry sweep and the expiry applied on reads: published quotes by validity.
    index('quotes_published_valid_until_idx')
      .on(t.validUntil)
      .where(sql`${t.state} = 'published' and ${t.deletedAt} is null`),
    check('quotes_state_check', sql`${t.state} in ('draft', 'published', 'signed', 'rejected', 'expired')`),
    check('quotes_code_when_published', sql`(${t.state} = 'draft') = (${t.code} is null)`),
  ],
);

/**
 * The last quote code number handed out per organisation and year. The publishing transaction
 * increments it with an upsert, which locks the row until that transaction ends: concurrent
 * publishes queue on it, and a publish that rolls back gives its number back.
 */
export const quoteCodeCounters = pgTable(
  'quote_code_counters',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.year] })],
);

/**
 * Lines of a quote. A brief gives a parent item (`briefId`, no `parentId`) and one child per
 * element (`briefElementId`); an article gives a root item. A parent's money is the sum of its
 * children. `totalPrice` = quantity x price (cents) + toolingCost + deliveryCost. Names,
 * references and dimensions are snapshots taken when the item is added.
 */
export const quoteItems = pgTable(
  'quote_items',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    quoteId: uuid('quote_id')
      .notNull()
      .references(() => quotes.id),
    parentId: uuid('parent_id').references((): AnyPgColumn => quoteItems.id),
    position: integer('position').notNull().default(1),
    briefId: uuid('brief_id').references(() => briefs.id),
    briefElementId: uuid('brief_element_id').references(() => briefElements.id),
    articleId: uuid('article_id').references(() => articles.id),
    /** The brief prediction the item was priced from. */
    predictionId: uuid('prediction_id'),
    /**
     * An element item: the element's position in its brief and the brief's prediction version
     * when it was quoted (the version it was priced from, else the current one then), so that its
     * die-line files show exactly what was quoted (docs/dielines.md). Null for other items.
     */
    elementPosition: integer('element_position'),
    briefVersion: integer('brief_version'),
    priceSource: text('price_source').$type<PriceSource>(),
    /** Brief code or article code. */
    reference: text('reference'),
    name: text('name').notNull(),
    /**
     * Whether `name` was typed by a user (PATCH .../quote-items/{itemId} { name }): it is then shown
     * as typed in every language; otherwise an element line is named by its style's catalogue name
     * in the reader's language and `name` is only the snapshot taken when the line was added.
     */
    customName: boolean('custom_name').notNull().default(false),
    description: text('description'),
    quantity: doublePrecision('quantity').notNull(),
    /**
     * Unit price shown, 4 decimals; null while unknown. Derived from the line amount
     * (`amount / quantity`) except for a manual price, which is the price typed in (docs/quotes.md,
     * rounding rule): it is never multiplied back into an amount.
     */
    price: doublePrecision('price'),
    /**
     * The goods amount of the line before discount, in cents: the engine's product price for the
     * quantity (a brief element), or quantity x the article's / manual unit price rounded once.
     * Null on rows made before the rounding rule (their totalPrice is kept as it was).
     */
    amount: doublePrecision('amount'),
    /** The engine's (or the article's) unit price, kept beside a manual override; staff only. */
    enginePrice: doublePrecision('engine_price'),
    /** The engine's goods amount for the quantity (cents), kept beside a manual override; staff only. */
    engineAmount: doublePrecision('engine_amount'),
    /** The engine's product cost for the quantity (cents): the margin shown to staff; staff only. */
    engineCost: doublePrecision('engine_cost'),
    /** A discount of the goods amount: a percentage or an amount (cents), never both. */
    discountPercent: doublePrecision('discount_percent'),
    discountAmount: doublePrecision('discount_amount'),
    /** An optional line is shown (with its price) but not counted in its parent's or the quote's total. */
    optional: boolean('optional').notNull().default(false),
    /** A heading the line is shown under (a group of lines on the quote). */
    groupLabel: text('group_label'),
    totalPrice: doublePrecision('total_price').notNull().default(0),
    toolingCost: doublePrecision('tooling_cost').notNull().default(0),
    deliveryCost: doublePrecision('delivery_cost').notNull().default(0),
    /**
     * The decoration variants of an element line, as its brief gave them (null: not an element
     * line, or made before variants were kept). Their quantities and amounts are derived on read.
     */
    variants: jsonb('variants').$type<LineVariant[]>(),
    /**
     * What an element line is made of, by catalogue id and operation code (style, board, colours,
     * finishes), so the PDF can say it in the quote's language; null for other lines.
     */
    specification: jsonb('specification').$type<LineSpecification>(),
    /** The tools `toolingCost` pays for, by engine tooling code (null: unknown, one "Tooling" line). */
    tooling: jsonb('tooling').$type<LineTooling[]>(),
    /** Whether the pricing is complete (a parent: all its children are). */
    valid: boolean('valid').notNull().default(false),
    comment: text('comment'),
    /** The price-break columns offered beside the line's own quantity, by quantity; empty: none. */
    priceBreaks: jsonb('price_breaks').$type<PriceBreak[]>().notNull().default([]),
    /** Dimensions (mm) for logistics. */
    length: doublePrecision('length'),
    width: doublePrecision('width'),
    height: doublePrecision('height'),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index('quote_items_quote_position_idx').on(t.quoteId, t.position, t.id).where(live(t)),
    index('quote_items_parent_idx').on(t.parentId).where(live(t)),
    index('quote_items_org_brief_idx').on(t.organisationId, t.briefId).where(live(t)),
    index('quote_items_org_article_idx').on(t.organisationId, t.articleId).where(live(t)),
    index('quote_items_org_updated_idx').on(t.organisationId, t.updatedAt),
    check('quote_items_discount_check', sql`${t.discountPercent} is null or ${t.discountAmount} is null`),
    check(
      'quote_items_reference_check',
      sql`${t.briefId} is not null or ${t.briefElementId} is not null or ${t.articleId} is not null`,
    ),
  ],
);

/**
 * Links that serve a quote's PDF in one language without credentials. Only the SHA-256 of the
 * token is stored; a link stops working when revoked or past `expiresAt`.
 */
export const quoteGuestLinks = pgTable(
  'quote_guest_links',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    quoteId: uuid('quote_id')
      .notNull()
      .references(() => quotes.id),
    language: text('language').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /** Made for proofs: its guest may also approve or request changes to the quote's artwork proofs. */
    proofs: boolean('proofs').notNull().default(false),
    createdById: uuid('created_by_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('quote_guest_links_token_uq').on(t.tokenHash),
    index('quote_guest_links_quote_idx').on(t.quoteId, t.createdAt),
  ],
);
