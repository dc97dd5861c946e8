/**
 * Article writes inside a caller's transaction, for modules that create articles as part of a
 * larger change (a signed quote converted into an order): the same row and event as the article
 * service, without opening a transaction of their own.
 */
import type { Tx } from '../../db/client.ts';
import type { EventRecorder } from '../../platform/events.ts';
import { roundUnitPrice } from '../../platform/money.ts';
import { ARTICLE_ENTITY, codeTaken, findArticleOfElement, insertArticle } from './repository.ts';

// Modules converting into articles find the element's article where they insert one.
export { findArticleOfElement };

export type ArticleActor = { organisationId: string; userId: string | null };

export type NewArticle = {
  companyId: string;
  name: string;
  /** Wanted code; made unique by a numeric suffix (-2, -3...) when another live article has it. */
  code: string;
  description: string | null;
  price: number | null;
  briefElementId: string | null;
  currencyId: string | null;
  unit?: string | null;
};

/** Inserts an article with its CREATE event; the company must have been checked by the caller. */
export async function insertArticleInTransaction(
  tx: Tx,
  actor: ArticleActor,
  input: NewArticle,
  record: EventRecorder,
) {
  let code = input.code;
  for (let n = 2; await codeTaken(tx, actor.organisationId, code); n++) code = `${input.code}-${n}`;
  const row = await insertArticle(tx, {
    organisationId: actor.organisationId,
    companyId: input.companyId,
    name: input.name,
    code,
    description: input.description,
    price: input.price == null ? null : roundUnitPrice(input.price),
    unit: input.unit ?? null,
    briefElementId: input.briefElementId,
    currencyId: input.currencyId,
    createdById: actor.userId,
  });
  await record({ on: ARTICLE_ENTITY, type: 'CREATE', entityId: row.id, snapshot: { ...row } });
  return row;
}
