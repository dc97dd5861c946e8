import { Type } from '@sinclair/typebox';
import { and, eq, ilike, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { articles } from '../../db/schema/orders.ts';
import { currencies, files } from '../../db/schema/organisation-data.ts';
import { companies } from '../../db/schema/platform.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import { entity } from '../../platform/events.ts';
import { likeEscape } from '../../platform/filters.ts';
import type { PageOptions, PageRequest } from '../../platform/pagination.ts';
import { ArticleSchema } from './schemas.ts';

export const ARTICLE_PAGE: PageOptions = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: {
    name: articles.name,
    code: articles.code,
    price: articles.price,
    quantity: articles.quantity,
    createdAt: articles.createdAt,
    updatedAt: articles.updatedAt,
  },
  tieBreaker: articles.id,
  defaultSort: { field: 'name', direction: 'ASC' },
};

export type ArticleRow = typeof articles.$inferSelect;

export const ARTICLE_ENTITY = entity('ARTICLE', 'articles', 'articles', {
  // GET /articles/{id} without its company and currency (joined).
  schema: Type.Omit(ArticleSchema, ['company', 'currency'], { $id: 'ArticleEventEntity' }),
});

/** An article as the API shows it: its row plus `company` {id, name} and `currency`. */
export const articleColumns = {
  id: articles.id,
  organisationId: articles.organisationId,
  companyId: articles.companyId,
  company: sql<{
    id: string;
    name: string;
  }>`json_build_object('id', ${companies.id}, 'name', ${companies.name})`,
  name: articles.name,
  code: articles.code,
  description: articles.description,
  price: articles.price,
  stocked: articles.stocked,
  quantity: articles.quantity,
  unit: articles.unit,
  enabled: articles.enabled,
  externalId: articles.externalId,
  briefElementId: articles.briefElementId,
  currencyId: articles.currencyId,
  currency: sql<{
    id: string;
    code: string;
    symbol: string;
  } | null>`case when ${currencies.id} is null then null
    else json_build_object('id', ${currencies.id}, 'code', ${currencies.code}, 'symbol', ${currencies.symbol}) end`,
  // A deleted preview file no longer shows.
  previewFileId: files.id,
  customFields: articles.customFields,
  createdById: articles.createdById,
  createdAt: articles.createdAt,
  updatedAt: articles.updatedAt,
  deletedAt: articles.deletedAt,
};

/** Articles with their company and currency, live rows of one organisation. */
export function selectArticles(db: Executor) {
  return db
    .select(articleColumns)
    .from(articles)
    .innerJoin(companies, eq(companies.id, articles.companyId))
    .leftJoin(currencies, eq(currencies.id, articles.currencyId))
    .leftJoin(files, and(eq(files.id, articles.previewFileId), isNull(files.deletedAt)));
}

export const liveArticleOf = (organisationId: string): SQL =>
  and(eq(articles.organisationId, organisationId), isNull(articles.deletedAt))!;

export async function findArticle(db: Executor, organisationId: string, id: string) {
  const [row] = await selectArticles(db)
    .where(and(eq(articles.id, id), liveArticleOf(organisationId)))
    .limit(1);
  return row;
}

/** The live article row itself (no relations), for changes. */
export async function findArticleRow(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(articles)
    .where(and(eq(articles.id, id), liveArticleOf(organisationId)))
    .limit(1);
  return row;
}

/** Whether another live article of the organisation has this code (case-insensitive). */
export async function codeTaken(db: Executor, organisationId: string, code: string, exceptId?: string) {
  const [row] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(
      and(
        liveArticleOf(organisationId),
        sql`lower(${articles.code}) = lower(${code})`,
        exceptId ? ne(articles.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export type ArticleFilter = {
  companyId?: string;
  briefElementId?: string;
  enabled?: boolean;
  createdById?: string;
  externalId?: string;
  stocked?: boolean;
  /** A "contains" on the name or the code. */
  search?: string;
};

/** A page of the organisation's live articles that the actor may see and that match, with the total. */
export async function listVisibleArticles(
  db: Executor,
  actor: Actor,
  filter: ArticleFilter,
  page: Pick<PageRequest, 'orderBy' | 'limit' | 'offset'>,
) {
  const conditions: (SQL | undefined)[] = [
    liveArticleOf(actor.organisationId),
    inCompanyScope(actor, articles.companyId),
    filter.companyId ? eq(articles.companyId, filter.companyId) : undefined,
    filter.briefElementId ? eq(articles.briefElementId, filter.briefElementId) : undefined,
    filter.enabled !== undefined ? eq(articles.enabled, filter.enabled) : undefined,
    filter.createdById ? eq(articles.createdById, filter.createdById) : undefined,
    filter.externalId ? eq(articles.externalId, filter.externalId) : undefined,
    filter.stocked !== undefined ? eq(articles.stocked, filter.stocked) : undefined,
  ];
  if (filter.search) {
    const pattern = `%${likeEscape(filter.search)}%`;
    conditions.push(or(ilike(articles.name, pattern), ilike(articles.code, pattern)));
  }
  const where = and(...conditions);
  const [rows, counted] = await Promise.all([
    selectArticles(db)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(articles).where(where),
  ]);
  return { rows, total: counted[0]?.total ?? 0 };
}

/** A live article of the company linked to the element (the oldest), if any. */
export async function findArticleOfElement(
  db: Executor,
  organisationId: string,
  companyId: string,
  briefElementId: string,
) {
  const [row] = await db
    .select()
    .from(articles)
    .where(
      and(
        eq(articles.organisationId, organisationId),
        eq(articles.companyId, companyId),
        eq(articles.briefElementId, briefElementId),
        isNull(articles.deletedAt),
      ),
    )
    .orderBy(articles.createdAt, articles.id)
    .limit(1);
  return row;
}

export async function insertArticle(db: Executor, values: typeof articles.$inferInsert) {
  const [row] = await db.insert(articles).values(values).returning();
  return row!;
}

/** Updates the article (found and checked by the caller); returns the whole row. */
export async function updateArticle(db: Executor, id: string, values: Partial<ArticleRow>) {
  const [row] = await db.update(articles).set(values).where(eq(articles.id, id)).returning();
  return row!;
}
