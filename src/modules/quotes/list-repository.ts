import { and, eq, ilike, inArray, isNull, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type QuoteState, quotes } from '../../db/schema/quotes.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import { likeEscape } from '../../platform/filters.ts';
import { keysetOf, pageOfIds } from '../../platform/list-paging.ts';
import type { PageOptions, PageRequest } from '../../platform/pagination.ts';
import { selectQuoteSummaries } from './repository.ts';

export const QUOTE_PAGE: PageOptions = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: {
    createdAt: quotes.createdAt,
    updatedAt: quotes.updatedAt,
    name: quotes.name,
    code: quotes.code,
    state: quotes.state,
    totalPrice: quotes.totalPrice,
    validUntil: quotes.validUntil,
    publishedAt: quotes.publishedAt,
  },
  tieBreaker: quotes.id,
  defaultSort: { field: 'createdAt', direction: 'DESC' },
};

export type QuoteListFilters = {
  companyId?: string;
  projectId?: string;
  states?: QuoteState[];
  /** "Contains" on the name or the code, case-insensitive. */
  term?: string;
};

/**
 * One page of the live quotes the actor may see (their companies'; for a contact, no other
 * user's draft), with their company and project: ids first, then the page's rows
 * (platform/list-paging.ts). `wholeOrganisation` when nothing narrows the list below the
 * organisation (its count may then be estimated); `after` is a keyset cursor.
 */
export async function listQuoteSummaries(
  db: Db,
  actor: Actor,
  filters: QuoteListFilters,
  page: PageRequest,
  options: { wholeOrganisation: boolean; after?: string },
) {
  const pattern = filters.term ? `%${likeEscape(filters.term)}%` : undefined;
  const where = and(
    eq(quotes.organisationId, actor.organisationId),
    isNull(quotes.deletedAt),
    inCompanyScope(actor, quotes.companyId),
    actor.role === 'contact'
      ? or(ne(quotes.state, 'draft'), eq(quotes.createdById, actor.userId))
      : undefined,
    filters.companyId ? eq(quotes.companyId, filters.companyId) : undefined,
    filters.projectId ? eq(quotes.projectId, filters.projectId) : undefined,
    filters.states ? inArray(quotes.state, filters.states) : undefined,
    pattern ? or(ilike(quotes.name, pattern), ilike(quotes.code, pattern)) : undefined,
  );
  const found = await pageOfIds(db, {
    table: quotes,
    id: quotes.id,
    where,
    page,
    wholeOrganisation: options.wholeOrganisation
      ? { organisationId: actor.organisationId, entity: 'quotes' }
      : undefined,
    keyset: options.after
      ? keysetOf(QUOTE_PAGE, page, options.after, eq(quotes.organisationId, actor.organisationId))
      : undefined,
    selective: Boolean(filters.term),
  });
  const rows = found.ids.length
    ? await selectQuoteSummaries(db)
        .where(inArray(quotes.id, found.ids))
        .orderBy(...page.orderBy)
    : [];
  return { rows, found };
}
