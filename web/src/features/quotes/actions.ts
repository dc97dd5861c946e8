import type { components } from '../../api/schema.d.ts';

type Quote = components['schemas']['Quote'];

/** An action the API offers on a quote (its lifecycle table: docs/quotes.md). */
export type QuoteAction = Quote['allowedActions'][number];

/** What the page reads of a quote to decide: its state, the API's `allowedActions`, its order. */
export type QuoteForActions = Pick<Quote, 'state' | 'allowedActions' | 'orderId'>;

/**
 * Whether the quote screen offers the action: only what the API's `allowedActions` lists for this
 * caller (their role, the quote's state, its validity, an order already made). The page never
 * decides by role or state itself; the API still decides each request and a refusal shows.
 */
export const offers = (quote: QuoteForActions, action: QuoteAction) => quote.allowedActions.includes(action);

/**
 * The guidance line of the quote page (an i18n key under `quotes.guide`), from the same list: it
 * names only what this caller can do next, so a buyer never reads staff guidance, an ordered quote
 * is not told to be converted, and nobody is told to revise what cannot be revised.
 */
export function guidanceOf(quote: QuoteForActions): string {
  const can = (action: QuoteAction) => offers(quote, action);
  switch (quote.state) {
    case 'draft':
      return can('publish') || can('edit') ? 'draftEdit' : 'draft';
    case 'published':
      if (can('accept') && can('revise')) return 'publishedStaff';
      if (can('accept')) return 'publishedBuyer';
      if (can('revise')) return 'publishedRevise';
      return 'publishedWait';
    case 'signed':
      if (can('convert')) return 'signedConvert';
      return quote.orderId ? 'signedOrdered' : 'signed';
    case 'rejected':
      return can('revise') ? 'rejectedRevise' : 'rejected';
    case 'expired':
      return can('revise') ? 'expiredRevise' : 'expired';
  }
}
