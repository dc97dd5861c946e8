/** The SQL of /api/brief-elements (elements.ts, element-writes.ts). */
import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { briefElements, briefs } from '../../db/schema/briefs.ts';
import { articles } from '../../db/schema/orders.ts';
import { type Actor, isCompanyScoped } from '../../platform/actor.ts';

/** The columns an element list may be sorted by. */
const ELEMENT_SORTS = {
  createdAt: briefElements.createdAt,
  position: briefElements.position,
  updatedAt: briefElements.updatedAt,
};

export type ElementSortField = keyof typeof ELEMENT_SORTS;

/** The currency of a brief, by id (whatever its state). */
export async function briefCurrency(db: Executor, briefId: string) {
  const [brief] = await db.select({ currency: briefs.currency }).from(briefs).where(eq(briefs.id, briefId));
  return brief?.currency ?? null;
}

/** Visibility: live brief of a visible company, or standalone (company-scoped: linked by their article). */
function visibleElements(actor: Actor): SQL {
  const liveBrief = sql`(${briefElements.briefId} is null or exists (select 1 from ${briefs} where ${briefs.id} = ${briefElements.briefId} and ${briefs.deletedAt} is null))`;
  if (!isCompanyScoped(actor)) return liveBrief;
  const ids = actor.companyIds.length ? actor.companyIds : ['00000000-0000-0000-0000-000000000000'];
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return sql`${liveBrief} and (
      (${briefElements.briefId} is not null and exists (select 1 from ${briefs} where ${briefs.id} = ${briefElements.briefId} and ${briefs.companyId} in (${list})))
      or (${briefElements.briefId} is null and exists (select 1 from ${articles} where ${articles.briefElementId} = ${briefElements.id} and ${articles.deletedAt} is null and ${articles.companyId} in (${list}))))`;
}

/** Whether the actor sees the element (visibility only; the caller checks it is live). */
export async function elementVisibleTo(db: Executor, actor: Actor, id: string) {
  const [seen] = await db
    .select({ id: briefElements.id })
    .from(briefElements)
    .where(and(eq(briefElements.id, id), visibleElements(actor)));
  return seen !== undefined;
}

/** A page of the live elements the actor sees, with the total. */
export async function listVisibleElements(
  db: Executor,
  actor: Actor,
  filter: { briefId?: string; productId?: string; productCategoryId?: string },
  page: { sortField: string; ascending: boolean; limit: number; offset: number },
) {
  const where = and(
    eq(briefElements.organisationId, actor.organisationId),
    isNull(briefElements.deletedAt),
    visibleElements(actor),
    filter.briefId ? eq(briefElements.briefId, filter.briefId) : undefined,
    filter.productId ? eq(briefElements.productId, filter.productId) : undefined,
    filter.productCategoryId ? eq(briefElements.productCategoryId, filter.productCategoryId) : undefined,
  );
  const column = ELEMENT_SORTS[page.sortField as ElementSortField] ?? briefElements.createdAt;
  const order = page.ascending ? asc(column) : desc(column);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(briefElements)
      .where(where)
      .orderBy(order, asc(briefElements.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(briefElements).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** A live article made from the element, if any. */
export async function findLiveArticleOfElement(db: Executor, elementId: string) {
  const [linked] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(and(eq(articles.briefElementId, elementId), isNull(articles.deletedAt)))
    .limit(1);
  return linked;
}

/** Soft-deletes a live element; returns it, undefined when it was not live. */
export async function softDeleteLiveElement(db: Executor, id: string, at: Date) {
  const [deleted] = await db
    .update(briefElements)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(briefElements.id, id), isNull(briefElements.deletedAt)))
    .returning();
  return deleted;
}

/** The id of the brief's live element at the position. */
export async function liveElementIdAt(db: Executor, briefId: string, position: number) {
  const [element] = await db
    .select({ id: briefElements.id })
    .from(briefElements)
    .where(
      and(
        eq(briefElements.briefId, briefId),
        eq(briefElements.position, position),
        isNull(briefElements.deletedAt),
      ),
    );
  return element?.id;
}

/** Stores HIPE's external id on an element. */
export async function setElementExternalId(db: Executor, id: string, externalId: string | null) {
  await db.update(briefElements).set({ externalId }).where(eq(briefElements.id, id));
}
