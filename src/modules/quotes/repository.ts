import { and, asc, eq, getTableColumns, inArray, isNull, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { type Executor, rowsOf } from '../../db/client.ts';
import { briefElements, briefs } from '../../db/schema/briefs.ts';
import { articles, orders } from '../../db/schema/orders.ts';
import { addresses, currencies, files, projects } from '../../db/schema/organisation-data.ts';
import { companies, companyUsers, organisations, users } from '../../db/schema/platform.ts';
import { quoteCodeCounters, quoteGuestLinks, quoteItems, quotes } from '../../db/schema/quotes.ts';
import { entity } from '../../platform/events.ts';

export const QUOTE_ENTITY = entity('QUOTE', 'quotes');
export const QUOTE_ITEM_ENTITY = entity('QUOTE_ITEM', 'quote_items');
export const QUOTE_GUEST_LINK_ENTITY = entity('QUOTE_GUEST_LINK', 'quote_guest_links');

export type QuoteRow = typeof quotes.$inferSelect;
export type QuoteItemRow = typeof quoteItems.$inferSelect;
export type GuestLinkRow = typeof quoteGuestLinks.$inferSelect;

/** The live quote of the organisation, optionally locked for the rest of the transaction. */
export async function findQuoteRow(
  db: Executor,
  organisationId: string,
  id: string,
  lock = false,
): Promise<QuoteRow | undefined> {
  const query = db
    .select()
    .from(quotes)
    .where(and(eq(quotes.id, id), eq(quotes.organisationId, organisationId), isNull(quotes.deletedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

const { deletedAt: _deleted, ...quoteColumns } = getTableColumns(quotes);

/** The columns of a quote in lists and reads, with its company and project. */
export const quoteSummaryColumns = {
  ...quoteColumns,
  project: sql<{ id: string; name: string } | null>`case when ${projects.id} is null then null
    else json_build_object('id', ${projects.id}, 'name', ${projects.name}) end`,
  company: sql<{
    id: string;
    name: string;
  }>`json_build_object('id', ${companies.id}, 'name', ${companies.name})`,
};

/** Quotes with their company and project (the select of lists). */
export function selectQuoteSummaries(db: Executor) {
  return db
    .select(quoteSummaryColumns)
    .from(quotes)
    .innerJoin(companies, eq(companies.id, quotes.companyId))
    .leftJoin(projects, eq(projects.id, quotes.projectId));
}

export type QuoteSummaryRow = Awaited<ReturnType<ReturnType<typeof selectQuoteSummaries>['execute']>>[number];

/** One quote with its company, project, contact and address (one statement). */
export async function findQuoteWithRefs(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select({
      ...quoteSummaryColumns,
      contact: sql<{
        id: string;
        email: string | null;
        firstName: string | null;
        lastName: string | null;
        phoneNumber: string | null;
      } | null>`case when ${users.id} is null then null else json_build_object('id', ${users.id},
        'email', ${users.email}, 'firstName', ${users.firstName}, 'lastName', ${users.lastName},
        'phoneNumber', ${users.phoneNumber}) end`,
      address: sql<{
        id: string;
        name: string | null;
        street1: string;
        street2: string | null;
        street3: string | null;
        postcode: string | null;
        city: string;
        region: string | null;
        countryCode: string;
      } | null>`case when ${addresses.id} is null then null else json_build_object('id', ${addresses.id},
        'name', ${addresses.name}, 'street1', ${addresses.street1}, 'street2', ${addresses.street2},
        'street3', ${addresses.street3}, 'postcode', ${addresses.postcode}, 'city', ${addresses.city},
        'region', ${addresses.region}, 'countryCode', ${addresses.countryCode}) end`,
      organisationName: organisations.name,
    })
    .from(quotes)
    .innerJoin(companies, eq(companies.id, quotes.companyId))
    .innerJoin(organisations, eq(organisations.id, quotes.organisationId))
    .leftJoin(projects, eq(projects.id, quotes.projectId))
    .leftJoin(users, eq(users.id, quotes.contactId))
    .leftJoin(addresses, eq(addresses.id, quotes.addressId))
    .where(and(eq(quotes.id, id), eq(quotes.organisationId, organisationId), isNull(quotes.deletedAt)))
    .limit(1);
  return row;
}

/** The VAT number of the quote's company (printed in the customer block of the PDF). */
export async function companyVatNumberOf(db: Executor, organisationId: string, companyId: string) {
  const [row] = await db
    .select({ vatNumber: companies.vatNumber })
    .from(companies)
    .where(and(eq(companies.id, companyId), eq(companies.organisationId, organisationId)))
    .limit(1);
  return row?.vatNumber ?? null;
}

export type QuoteWithRefs = NonNullable<Awaited<ReturnType<typeof findQuoteWithRefs>>>;

/** The live items of a quote: roots by position, each root's children right after it. */
export function liveItemsOf(db: Executor, quoteId: string): Promise<QuoteItemRow[]> {
  return db
    .select()
    .from(quoteItems)
    .where(and(eq(quoteItems.quoteId, quoteId), isNull(quoteItems.deletedAt)))
    .orderBy(asc(quoteItems.position), asc(quoteItems.id));
}

export async function findItemRow(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(quoteItems)
    .where(
      and(eq(quoteItems.id, id), eq(quoteItems.organisationId, organisationId), isNull(quoteItems.deletedAt)),
    )
    .limit(1);
  return row;
}

/** The live top-level items of the quote that came whole from one of these briefs. */
export async function briefParentItems(db: Executor, quoteId: string, briefIds: string[]) {
  if (!briefIds.length) return [];
  return db
    .select({ id: quoteItems.id, briefId: quoteItems.briefId })
    .from(quoteItems)
    .where(
      and(
        eq(quoteItems.quoteId, quoteId),
        isNull(quoteItems.deletedAt),
        isNull(quoteItems.parentId),
        inArray(quoteItems.briefId, briefIds),
      ),
    );
}

/** The currency of a quote, deleted or not (an item's event payload prices in it). */
export async function quoteCurrencyOf(db: Executor, quoteId: string): Promise<string | undefined> {
  const [quote] = await db
    .select({ currency: quotes.currency })
    .from(quotes)
    .where(eq(quotes.id, quoteId))
    .limit(1);
  return quote?.currency;
}

/** The next position after the live items with this parent (null: the roots) in the quote. */
export async function nextPosition(db: Executor, quoteId: string, parentId: string | null) {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${quoteItems.position}), 0)::int + 1` })
    .from(quoteItems)
    .where(
      and(
        eq(quoteItems.quoteId, quoteId),
        isNull(quoteItems.deletedAt),
        parentId ? eq(quoteItems.parentId, parentId) : isNull(quoteItems.parentId),
      ),
    );
  return row!.n;
}

/**
 * Makes every parent item of the quote the sum of its live children that are not optional (money
 * rounded to cents, valid when all children are) and returns the parents that changed. Runs in the transaction of
 * every item change, under the quote's row lock.
 */
export async function refreshParents(tx: Executor, quoteId: string): Promise<QuoteItemRow[]> {
  const changed = await tx
    .update(quoteItems)
    .set({
      totalPrice: sql`s.total`,
      toolingCost: sql`s.tooling`,
      deliveryCost: sql`s.delivery`,
      valid: sql`s.valid`,
      updatedAt: new Date(),
    })
    .from(
      sql`(select parent_id,
          coalesce(round((sum(total_price) filter (where not optional))::numeric, 2), 0)::float8 as total,
          coalesce(round((sum(tooling_cost) filter (where not optional))::numeric, 2), 0)::float8 as tooling,
          coalesce(round((sum(delivery_cost) filter (where not optional))::numeric, 2), 0)::float8 as delivery,
          bool_and(valid) as valid
        from quote_items
        where quote_id = ${quoteId} and parent_id is not null and deleted_at is null
        group by parent_id) as s`,
    )
    .where(
      and(
        sql`${quoteItems.id} = s.parent_id`,
        isNull(quoteItems.deletedAt),
        sql`(${quoteItems.totalPrice}, ${quoteItems.toolingCost}, ${quoteItems.deliveryCost}, ${quoteItems.valid})
          is distinct from (s.total, s.tooling, s.delivery, s.valid)`,
      ),
    )
    .returning();
  return changed;
}

/** Makes the quote's totals the sums of its live root items that are not optional; returns the quote. */
export async function refreshQuoteTotals(tx: Executor, quoteId: string): Promise<QuoteRow> {
  const sums = (column: string) =>
    sql.raw(`coalesce((select round(sum(i.${column})::numeric, 2) from quote_items i
      where i.quote_id = quotes.id and i.parent_id is null and i.deleted_at is null and not i.optional), 0)::float8`);
  const [row] = await tx
    .update(quotes)
    .set({
      totalPrice: sql`${sums('total_price')}`,
      toolingCost: sql`${sums('tooling_cost')}`,
      deliveryCost: sql`${sums('delivery_cost')}`,
      updatedAt: new Date(),
    })
    .where(eq(quotes.id, quoteId))
    .returning();
  return row!;
}

/**
 * The next code number of the organisation for `year`, inside the caller's transaction: the
 * upsert locks the counter row until that transaction ends, so concurrent publishes take turns
 * and a rolled-back publish gives its number back (codes are gapless). The first number of an
 * organisation and year continues after any code already stored for it.
 */
export async function allocateCodeNumber(tx: Executor, organisationId: string, year: number) {
  const [row] = await tx
    .insert(quoteCodeCounters)
    .values({
      organisationId,
      year,
      lastNumber: sql`(select coalesce(max(${quotes.codeNumber}), 0) + 1 from ${quotes}
        where ${quotes.organisationId} = ${organisationId} and ${quotes.codeYear} = ${year})`,
    })
    .onConflictDoUpdate({
      target: [quoteCodeCounters.organisationId, quoteCodeCounters.year],
      set: { lastNumber: sql`${quoteCodeCounters.lastNumber} + 1` },
    })
    .returning({ n: quoteCodeCounters.lastNumber });
  return row!.n;
}

/**
 * Locks the published quotes whose validity has passed (all organisations, or one, or one quote),
 * oldest validity first, for the expiry to fire on each. Rows another transaction holds are
 * skipped: it is changing them now, and the next sweep or read takes them.
 */
export function lockDueQuotes(
  tx: Executor,
  options: { organisationId?: string; quoteId?: string; limit?: number; now: Date },
): Promise<QuoteRow[]> {
  return tx
    .select()
    .from(quotes)
    .where(
      and(
        eq(quotes.state, 'published'),
        isNull(quotes.deletedAt),
        lt(quotes.validUntil, options.now),
        options.organisationId ? eq(quotes.organisationId, options.organisationId) : undefined,
        options.quoteId ? eq(quotes.id, options.quoteId) : undefined,
      ),
    )
    .orderBy(quotes.validUntil)
    .limit(options.limit ?? 500)
    .for('update', { skipLocked: true });
}

/** Whether the organisation has a published quote past its validity (a cheap indexed probe). */
export async function hasDue(db: Executor, organisationId: string, now = new Date()) {
  const result = await db.execute(sql`select 1 as due from ${quotes}
    where ${quotes.state} = 'published' and ${quotes.deletedAt} is null and ${quotes.validUntil} < ${now}
      and ${quotes.organisationId} = ${organisationId} limit 1`);
  return rowsOf(result).length > 0;
}

/** The generated PDFs of a quote: its live files labelled with a language. */
export function pdfFilesOf(db: Executor, organisationId: string, quoteId: string) {
  return db
    .select({
      id: files.id,
      label: files.label,
      filename: files.filename,
      mimeType: files.mimeType,
      size: files.size,
      sha256: files.sha256,
      createdAt: files.createdAt,
    })
    .from(files)
    .where(
      and(
        eq(files.organisationId, organisationId),
        eq(files.entity, 'quote'),
        eq(files.entityId, quoteId),
        isNull(files.deletedAt),
        eq(files.mimeType, 'application/pdf'),
        // The PDFs of a language (en, fr, de), not the signed PDF of an acceptance (label `signed`)
        // nor the artwork and proof PDFs of its lines (labels `artwork`, `proof`: docs/proofs.md).
        notInArray(files.label, ['signed', 'artwork', 'proof']),
      ),
    )
    .orderBy(asc(files.label), asc(files.createdAt));
}

/** A live contact (user with role contact) of the organisation, and whether it is linked to the company. */
export async function findContact(db: Executor, organisationId: string, id: string, companyId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      phoneNumber: users.phoneNumber,
      firstName: users.firstName,
      lastName: users.lastName,
      linked: sql<boolean>`exists (select 1 from ${companyUsers} cu
        where cu.user_id = ${users.id} and cu.company_id = ${companyId})`,
    })
    .from(users)
    .where(
      and(
        eq(users.id, id),
        eq(users.organisationId, organisationId),
        eq(users.role, 'contact'),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  return row;
}

export async function findGuestLinkByHash(db: Executor, tokenHash: string) {
  const [row] = await db
    .select()
    .from(quoteGuestLinks)
    .where(eq(quoteGuestLinks.tokenHash, tokenHash))
    .limit(1);
  return row;
}

export function guestLinksOf(db: Executor, organisationId: string, quoteId: string) {
  return db
    .select()
    .from(quoteGuestLinks)
    .where(and(eq(quoteGuestLinks.quoteId, quoteId), eq(quoteGuestLinks.organisationId, organisationId)))
    .orderBy(asc(quoteGuestLinks.createdAt), asc(quoteGuestLinks.id));
}

export async function findGuestLink(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(quoteGuestLinks)
    .where(and(eq(quoteGuestLinks.id, id), eq(quoteGuestLinks.organisationId, organisationId)))
    .limit(1);
  return row;
}

/** Sets columns of a quote and answers the row as it is now. */
export async function setQuote(tx: Executor, id: string, values: PgUpdateSetSource<typeof quotes>) {
  const [row] = await tx.update(quotes).set(values).where(eq(quotes.id, id)).returning();
  return row;
}

/** Sets columns of a quote item and answers the row as it is now. */
export async function setQuoteItem(tx: Executor, id: string, values: PgUpdateSetSource<typeof quoteItems>) {
  const [row] = await tx.update(quoteItems).set(values).where(eq(quoteItems.id, id)).returning();
  return row;
}

/** A live currency of the organisation by its ISO code, if it has one. */
export async function findCurrencyByCode(db: Executor, organisationId: string, code: string) {
  const [row] = await db
    .select({ id: currencies.id })
    .from(currencies)
    .where(
      and(
        eq(currencies.organisationId, organisationId),
        eq(currencies.code, code),
        isNull(currencies.deletedAt),
      ),
    )
    .limit(1);
  return row;
}

/** The brief of each of these brief elements of the organisation. */
export async function briefsOfElements(db: Executor, organisationId: string, elementIds: string[]) {
  if (!elementIds.length) return new Map<string, string>();
  const rows = await db
    .select({ id: briefElements.id, briefId: briefElements.briefId })
    .from(briefElements)
    .where(and(inArray(briefElements.id, elementIds), eq(briefElements.organisationId, organisationId)));
  return new Map(rows.map((e) => [e.id, e.briefId]));
}

/** The currency of each of these live briefs of the organisation whose prediction is COMPLETED. */
export async function currenciesOfPricedBriefs(db: Executor, organisationId: string, briefIds: string[]) {
  const rows = await db
    .select({ id: briefs.id, currency: briefs.currency })
    .from(briefs)
    .where(
      and(
        inArray(briefs.id, briefIds),
        eq(briefs.organisationId, organisationId),
        eq(briefs.predictionStatus, 'COMPLETED'),
        isNull(briefs.deletedAt),
      ),
    );
  return new Map(rows.map((b) => [b.id, b.currency]));
}

/** The organisation's base currency. */
export async function baseCurrencyOf(db: Executor, organisationId: string) {
  const [org] = await db
    .select({ currency: organisations.baseCurrency })
    .from(organisations)
    .where(eq(organisations.id, organisationId));
  return org?.currency;
}

/** Whether a live item of the quote is a brief or an article of another company than this one. */
export async function hasItemOfOtherCompany(db: Executor, quoteId: string, companyId: string) {
  const [other] = await db
    .select({ id: quoteItems.id })
    .from(quoteItems)
    .leftJoin(briefs, eq(briefs.id, quoteItems.briefId))
    .leftJoin(articles, eq(articles.id, quoteItems.articleId))
    .where(
      and(
        eq(quoteItems.quoteId, quoteId),
        isNull(quoteItems.deletedAt),
        or(
          and(sql`${briefs.id} is not null`, ne(briefs.companyId, companyId)),
          and(sql`${articles.id} is not null`, ne(articles.companyId, companyId)),
        ),
      ),
    )
    .limit(1);
  return Boolean(other);
}

/** The live order a quote was converted into, as a link shows it (its id and ERP id). */
export async function findOrderRef(db: Executor, organisationId: string, orderId: string) {
  const [row] = await db
    .select({ id: orders.id, code: orders.code, externalId: orders.externalId })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.organisationId, organisationId), isNull(orders.deletedAt)))
    .limit(1);
  return row ?? null;
}
