import { Type } from '@sinclair/typebox';
import { and, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { articles } from '../../db/schema/orders.ts';
import { currencies, files } from '../../db/schema/organisation-data.ts';
import { companies } from '../../db/schema/platform.ts';
import { entity } from '../../platform/events.ts';
import { ArticleSchema } from './schemas.ts';

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
