import type { Role } from '../../api/auth.ts';

export type QuoteState = 'draft' | 'published' | 'signed' | 'rejected' | 'expired';
export type QuoteAction =
  | 'edit'
  | 'publish'
  | 'accept'
  | 'decline'
  | 'revise'
  | 'convert'
  | 'pdf'
  | 'guestLinks';

const STAFF: Role[] = ['superadmin', 'admin', 'sales', 'external_sales'];

/**
 * What the quote screen offers in a state, for a role: the transitions of docs/quotes.md and the
 * permission matrix (quotes:write for staff, quotes:respond for contacts too). It only chooses
 * which buttons to show; the API decides, and a refusal shows its reason.
 */
export function quoteActions(state: QuoteState, role: Role | undefined, converted: boolean): QuoteAction[] {
  const staff = role !== undefined && STAFF.includes(role);
  const actions: QuoteAction[] = [];
  if (state === 'draft' && staff) actions.push('edit', 'publish');
  if (state === 'published' && (staff || role === 'contact')) actions.push('accept', 'decline');
  if (state !== 'draft' && staff) actions.push('pdf', 'guestLinks', 'revise');
  if (state === 'signed' && staff && !converted) actions.push('convert');
  return actions;
}
