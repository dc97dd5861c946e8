import type { Db, Tx } from '../../db/client.ts';
import type { QuoteState } from '../../db/schema/quotes.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError } from '../../platform/errors.ts';
import { type ChangeRunner, changedFields, type EventRecorder } from '../../platform/events.ts';
import { isDateOnly, toDate } from '../../platform/filters.ts';
import { repriceInvalidItems } from './items.ts';
import {
  allocateCodeNumber,
  expireDue,
  findQuoteRow,
  liveItemsOf,
  QUOTE_ENTITY,
  QUOTE_ITEM_ENTITY,
  type QuoteItemRow,
  type QuoteRow,
  refreshParents,
  refreshQuoteTotals,
  setQuote,
  setQuoteItem,
} from './repository.ts';

/*
 * The state machine of a quote (docs/quotes.md): draft -> published (publish) -> signed | rejected
 * (respond), and published -> expired once past its validity (the sweep, and every read or change
 * of a quote past it).
 */

/** How long a published quote is valid when it has no `validUntil`. */
export const DEFAULT_VALIDITY_DAYS = 30;

/** The states each state may move to, and how (docs/quotes.md). */
export const TRANSITIONS: Record<QuoteState, readonly QuoteState[]> = {
  draft: ['published'],
  published: ['signed', 'rejected', 'expired'],
  signed: [],
  rejected: [],
  expired: [],
};

/** `Q-2026-00042`: year of publication and the organisation's sequence of that year. */
export const quoteCode = (year: number, n: number) => `Q-${year}-${String(n).padStart(5, '0')}`;

const DAY_MS = 86_400_000;

/** A validity from the request: a date alone is valid through that whole day (UTC). */
export function validityOf(value: string): Date {
  if (isDateOnly(value)) return new Date(toDate(value).getTime() + DAY_MS - 1);
  return new Date(value);
}

export const isPastValidity = (row: Pick<QuoteRow, 'state' | 'validUntil'>, now: Date) =>
  row.state === 'published' && row.validUntil !== null && row.validUntil.getTime() < now.getTime();

export const quoteLocked = (state: QuoteState) =>
  new AppError(
    'quote_locked',
    `The quote is ${state} and locked: only a draft can be changed (make a revision to change it)`,
  );

export const invalidTransition = (from: QuoteState, to: QuoteState | string, why?: string) =>
  new AppError('invalid_transition', `A quote cannot go from ${from} to ${to}${why ? `: ${why}` : ''}`);

/** One event per quote item row (a change of the quote's items). */
export const recordItems = async (
  record: EventRecorder,
  rows: QuoteItemRow[],
  type: 'CREATE' | 'UPDATE' | 'DELETE',
  updatedColumns?: string[],
) => {
  for (const row of rows) {
    await record({
      on: QUOTE_ITEM_ENTITY,
      type,
      entityId: row.id,
      snapshot: row,
      relation: QUOTE_ENTITY,
      relationId: row.quoteId,
      ...(updatedColumns ? { updatedColumns } : {}),
    });
  }
};

/** The UPDATE event of a quote, with the columns that changed. */
export const recordQuoteUpdate = (
  record: EventRecorder,
  before: QuoteRow,
  after: QuoteRow,
  fieldName?: string,
) =>
  record({
    on: QUOTE_ENTITY,
    type: 'UPDATE',
    entityId: after.id,
    snapshot: after,
    updatedColumns: changedFields(before, after),
    ...(fieldName ? { fieldName } : {}),
  });

export function createQuoteLifecycle({ db, change }: { db: Db; change: ChangeRunner }) {
  /** Changes made by the service itself (expiry): no user. */
  const systemOf = (organisationId: string) => ({ organisationId, userId: null });

  const recordExpired = async (record: EventRecorder, rows: QuoteRow[]) => {
    for (const row of rows) {
      await record({
        on: QUOTE_ENTITY,
        type: 'UPDATE',
        entityId: row.id,
        snapshot: row,
        fieldName: 'state',
        updatedColumns: ['state', 'expiredAt'],
        organisationId: row.organisationId,
      });
    }
  };

  /** Expires one quote now if its validity has passed (its own transaction, with its event). */
  async function expireIfDue(organisationId: string, id: string) {
    return change(systemOf(organisationId), async (tx, record) => {
      const rows = await expireDue(tx, { organisationId, quoteId: id });
      await recordExpired(record, rows);
      return rows.length > 0;
    });
  }

  /**
   * Expires every published quote whose validity has passed, in batches, with one event each:
   * the scheduled job, and the lists of an organisation (`organisationId`) before they read.
   */
  async function expireAllDue(options: { organisationId?: string; now?: Date } = {}) {
    let total = 0;
    for (;;) {
      const count = await change(
        options.organisationId ? systemOf(options.organisationId) : null,
        async (tx, record) => {
          const rows = await expireDue(tx, { ...options, limit: 500 });
          await recordExpired(record, rows);
          return rows.length;
        },
      );
      total += count;
      if (count < 500) return total;
    }
  }

  /**
   * Expires a published quote past its validity before it is read or changed, so every answer
   * shows its true state; whether it did. `found` spares a read when the caller has the row.
   */
  async function expireIfPastValidity(
    organisationId: string,
    id: string,
    found?: Pick<QuoteRow, 'state' | 'validUntil'>,
  ): Promise<boolean> {
    const row = found ?? (await findQuoteRow(db, organisationId, id));
    if (!row || !isPastValidity(row, new Date())) return false;
    await expireIfDue(organisationId, id);
    return true;
  }

  /** Draft to published: pricing complete (422), validity ahead (422), the next code. */
  async function publish(tx: Tx, record: EventRecorder, quote: QuoteRow): Promise<QuoteRow> {
    const now = new Date();
    // Elements whose brief has been priced since they were added take their price now.
    const items = await liveItemsOf(tx, quote.id);
    const repriced = await repriceInvalidItems(tx, quote, items);
    for (const { item, pricing } of repriced) {
      const row = await setQuoteItem(tx, item.id, { ...pricing, updatedAt: now });
      await record({
        on: QUOTE_ITEM_ENTITY,
        type: 'UPDATE',
        entityId: row!.id,
        snapshot: row!,
        relation: QUOTE_ENTITY,
        relationId: quote.id,
        updatedColumns: changedFields(item, row!),
      });
    }
    if (repriced.length) {
      await recordItems(record, await refreshParents(tx, quote.id), 'UPDATE', [
        'totalPrice',
        'toolingCost',
        'deliveryCost',
        'valid',
      ]);
      quote = await refreshQuoteTotals(tx, quote.id);
    }
    const current = repriced.length ? await liveItemsOf(tx, quote.id) : items;
    const incomplete = current.filter((i) => !i.valid && !i.parentId);
    if (!current.length || incomplete.length) {
      const leaves = current.filter((i) => !i.valid && (i.parentId || i.articleId));
      throw new AppError(
        'pricing_incomplete',
        `The pricing of ${leaves.length} item(s) is not complete: the quote cannot be published until every item has a price`,
        {
          issues: leaves.map((i) => ({
            pointer: '/state',
            message: `item ${i.id} (${i.name}) has no complete price${i.briefElementId ? ' (its brief has no COMPLETED prediction, or another quantity)' : ''}`,
            in: 'body' as const,
          })),
        },
      );
    }
    let validUntil = quote.validUntil;
    if (!validUntil) validUntil = new Date(now.getTime() + DEFAULT_VALIDITY_DAYS * DAY_MS);
    if (validUntil.getTime() <= now.getTime()) {
      throw new AppError('validity_passed', 'validUntil has passed: set a later date to publish the quote', {
        issues: [{ pointer: '/validUntil', message: 'must be in the future to publish', in: 'body' }],
      });
    }
    const year = now.getUTCFullYear();
    const codeNumber = await allocateCodeNumber(tx, quote.organisationId, year);
    const row = await setQuote(tx, quote.id, {
      state: 'published',
      code: quoteCode(year, codeNumber),
      codeYear: year,
      codeNumber,
      publishedAt: now,
      validUntil,
      updatedAt: now,
    });
    return row!;
  }

  /** Published to signed or rejected (by the client's contact or by sales). */
  async function respond(
    tx: Tx,
    actor: Actor,
    quote: QuoteRow,
    to: 'signed' | 'rejected',
    reason?: string | null,
  ): Promise<QuoteRow> {
    const now = new Date();
    if (isPastValidity(quote, now)) {
      throw invalidTransition('expired', to, `its validity ended on ${quote.validUntil!.toISOString()}`);
    }
    if (quote.state !== 'published') throw invalidTransition(quote.state, to);
    const row = await setQuote(
      tx,
      quote.id,
      to === 'signed'
        ? { state: 'signed', signedAt: now, respondedById: actor.userId, updatedAt: now }
        : {
            state: 'rejected',
            rejectedAt: now,
            rejectionReason: reason?.trim() || null,
            respondedById: actor.userId,
            updatedAt: now,
          },
    );
    return row!;
  }

  return { expireIfDue, expireAllDue, expireIfPastValidity, publish, respond };
}

export type QuoteLifecycle = ReturnType<typeof createQuoteLifecycle>;
