import type { Db, Tx } from '../../db/client.ts';
import type { Role } from '../../db/schema/platform.ts';
import type { QuoteState } from '../../db/schema/quotes.ts';
import type { Actor } from '../../platform/actor.ts';
import type { ErrorCode } from '../../platform/error-codes.ts';
import { AppError, type ProblemIssue } from '../../platform/errors.ts';
import { type ChangeRunner, changedFields, type EventRecorder } from '../../platform/events.ts';
import { isDateOnly, toDate } from '../../platform/filters.ts';
import { isAllowed, type Permission } from '../../platform/permissions.ts';
import { repriceInvalidItems } from './items.ts';
import {
  allocateCodeNumber,
  findQuoteRow,
  liveItemsOf,
  lockDueQuotes,
  QUOTE_ENTITY,
  QUOTE_ITEM_ENTITY,
  type QuoteItemRow,
  type QuoteRow,
  refreshParents,
  refreshQuoteTotals,
  setQuote,
  setQuoteItem,
} from './repository.ts';
import type { UpdateQuoteInput } from './schemas.ts';

/*
 * The lifecycle of a quote as ONE table (docs/quotes.md renders it): each row says from which
 * state a trigger (an action) leads to which state, who may fire it, the guard that may refuse it
 * and the named effects the service runs, in order, in the change's transaction. The service fires
 * every state change through `fire` (below); `GET /quotes/{id}` exposes `allowedActions`, the
 * triggers whose row exists for the quote's state and whose guard passes for the caller; the web
 * reads that list instead of deciding itself.
 *
 * "Ordered" is not a state of its own: a signed quote converted into an order keeps `signed` and
 * carries `orderId` (the guards of `convert` and `revise` read it). A revision does not change its
 * source (there is no "superseded" state): it is a new draft of the same lineage.
 */

/** How long a published quote is valid when it has no `validUntil`. */
export const DEFAULT_VALIDITY_DAYS = 30;

/** The triggers (action names) of the lifecycle; `expire` is the service's own. */
export const QUOTE_TRIGGERS = [
  'edit',
  'publish',
  'accept',
  'decline',
  'expire',
  'revise',
  'convert',
] as const;
export type QuoteTrigger = (typeof QUOTE_TRIGGERS)[number];

/** What a user may be offered (`allowedActions`): every trigger but the automatic expiry. */
export const QUOTE_ACTIONS = ['edit', 'publish', 'accept', 'decline', 'revise', 'convert'] as const;
export type QuoteAction = (typeof QUOTE_ACTIONS)[number];

/** The effects a transition runs, by name (their code is `EFFECTS` in createQuoteLifecycle). */
export const QUOTE_EFFECTS = [
  'applyFields',
  'priceWaitingItems',
  'requireCompletePricing',
  'requireValidityAhead',
  'assignCode',
  'stampSigned',
  'stampRejected',
  'stampExpired',
  'copyIntoRevision',
  'createOrder',
  'recordUpdate',
] as const;
export type QuoteEffect = (typeof QUOTE_EFFECTS)[number];

/** A refusal of a guard: the registry's error code and the reason given to the client. */
export type Refusal = { code: ErrorCode; reason: string; issues?: ProblemIssue[] };

/** What a guard reads of a quote. */
export type GuardQuote = Pick<QuoteRow, 'state' | 'validUntil' | 'orderId'> &
  Partial<Pick<QuoteRow, 'proofsPending'>>;

/**
 * Who fires a trigger: a user (their role), `system` (the service itself: the expiry), or `null`
 * when the caller has already checked the permission (the route did) and asks about the state only.
 */
export type LifecycleActor = { role: Role } | 'system' | null;

export type Guard = (quote: GuardQuote, actor: LifecycleActor, now: Date) => Refusal | null;

export type Transition = {
  from: QuoteState;
  /** The quote's state afterwards (`revise` and `convert` leave it: they make another record). */
  to: QuoteState;
  trigger: QuoteTrigger;
  /** The permission of the matrix (src/platform/permissions.ts) that fires it, or the service itself. */
  by: Permission | 'system';
  guard: Guard;
  /** Read by a human: what the guard checks (rendered in docs/quotes.md). */
  when: string;
  effects: readonly QuoteEffect[];
};

export const isPastValidity = (row: Pick<QuoteRow, 'state' | 'validUntil'>, now: Date) =>
  row.state === 'published' && row.validUntil !== null && row.validUntil.getTime() < now.getTime();

const always: Guard = () => null;

/** Accept and decline: refused once the validity has passed (the quote is expired, or about to be). */
const withinValidity =
  (to: QuoteState): Guard =>
  (quote, _actor, now) =>
    isPastValidity(quote, now)
      ? {
          code: 'invalid_transition',
          reason: `A quote cannot go from expired to ${to}: its validity ended on ${quote.validUntil!.toISOString()}`,
        }
      : null;

/** The expiry: only once the validity has passed. */
const pastValidity: Guard = (quote, _actor, now) =>
  isPastValidity(quote, now)
    ? null
    : { code: 'invalid_transition', reason: 'A quote expires only once its validity has passed' };

/** Nothing follows an order: no second conversion, no revision of what was ordered. */
const notOrdered =
  (trigger: 'revise' | 'convert'): Guard =>
  (quote) => {
    if (!quote.orderId) return null;
    return trigger === 'convert'
      ? { code: 'already_converted', reason: 'The quote has already been converted into an order' }
      : {
          code: 'invalid_transition',
          reason:
            'The quote has been converted into an order: it is no longer revised (change the order, or make a new quote)',
        };
  };

/**
 * The proof gate (docs/proofs.md): a quote whose lines have artwork becomes an order only once
 * every such line's latest proof is approved (`proofsPending`, kept by the proofs module).
 */
const proofsApproved: Guard = (quote) =>
  quote.proofsPending
    ? {
        code: 'proofs_not_approved',
        reason: `${quote.proofsPending} line(s) with artwork have no approved latest proof: the buyer approves each proof before the quote becomes an order`,
        issues: [
          {
            pointer: '/items',
            message: `${quote.proofsPending} line(s) wait for an approved proof (GET /quotes/{id}/proofs)`,
            in: 'body',
          },
        ],
      }
    : null;

/** Every guard in turn; the first refusal wins. */
const allOf =
  (...guards: Guard[]): Guard =>
  (quote, actor, now) => {
    for (const guard of guards) {
      const refusal = guard(quote, actor, now);
      if (refusal) return refusal;
    }
    return null;
  };

const PUBLISH_EFFECTS = [
  'applyFields',
  'priceWaitingItems',
  'requireCompletePricing',
  'requireValidityAhead',
  'assignCode',
  'recordUpdate',
] as const satisfies readonly QuoteEffect[];

const revision = (from: QuoteState, guard: Guard = always, when = '-'): Transition => ({
  from,
  to: from,
  trigger: 'revise',
  by: 'quotes:write',
  guard,
  when,
  effects: ['copyIntoRevision'],
});

/** THE lifecycle table (docs/quotes.md shows it; test/quotes/lifecycle.test.ts checks both agree). */
export const QUOTE_LIFECYCLE: readonly Transition[] = [
  {
    from: 'draft',
    to: 'draft',
    trigger: 'edit',
    by: 'quotes:write',
    guard: always,
    when: '-',
    effects: ['applyFields', 'recordUpdate'],
  },
  {
    from: 'draft',
    to: 'published',
    trigger: 'publish',
    by: 'quotes:write',
    guard: always,
    when: 'every item priced (else 422 `pricing_incomplete`), validity ahead (else 422 `validity_passed`): checked by the effects, after the edits',
    effects: PUBLISH_EFFECTS,
  },
  {
    from: 'published',
    to: 'signed',
    trigger: 'accept',
    by: 'quotes:respond',
    guard: withinValidity('signed'),
    when: 'validity not passed',
    effects: ['stampSigned', 'recordUpdate'],
  },
  {
    from: 'published',
    to: 'rejected',
    trigger: 'decline',
    by: 'quotes:respond',
    guard: withinValidity('rejected'),
    when: 'validity not passed',
    effects: ['stampRejected', 'recordUpdate'],
  },
  {
    from: 'published',
    to: 'expired',
    trigger: 'expire',
    by: 'system',
    guard: pastValidity,
    when: '`validUntil` has passed',
    effects: ['stampExpired', 'recordUpdate'],
  },
  revision('published'),
  revision('signed', notOrdered('revise'), 'not converted into an order (else 409 `invalid_transition`)'),
  revision('rejected'),
  revision('expired'),
  {
    from: 'signed',
    to: 'signed',
    trigger: 'convert',
    by: 'quotes:write',
    guard: allOf(notOrdered('convert'), proofsApproved),
    when: 'not converted yet (else 409 `already_converted`); every line with artwork has its latest proof approved (else 409 `proofs_not_approved`)',
    effects: ['createOrder', 'recordUpdate'],
  },
];

/** The state a trigger aims at, for the messages of refusals. */
const TARGET: Record<QuoteTrigger, QuoteState | 'an order' | 'a revision'> = {
  edit: 'draft',
  publish: 'published',
  accept: 'signed',
  decline: 'rejected',
  expire: 'expired',
  revise: 'a revision',
  convert: 'an order',
};

/** The trigger a `PUT /quotes/{id} {state}` asks for (the spec's way to move a quote). */
export const TRIGGER_OF_STATE: Record<QuoteState, QuoteTrigger> = {
  draft: 'edit',
  published: 'publish',
  signed: 'accept',
  rejected: 'decline',
  expired: 'expire',
};

export const transitionFor = (trigger: QuoteTrigger, state: QuoteState) =>
  QUOTE_LIFECYCLE.find((row) => row.trigger === trigger && row.from === state);

/** The refusal when no row of the table starts from the quote's state for the trigger. */
function noRow(trigger: QuoteTrigger, state: QuoteState): Refusal {
  switch (trigger) {
    case 'edit':
      return {
        code: 'quote_locked',
        reason: `The quote is ${state} and locked: only a draft can be changed (make a revision to change it)`,
      };
    case 'convert':
      return {
        code: 'quote_not_signed',
        reason: `Only a signed quote becomes an order (this one is ${state})`,
      };
    case 'revise':
      return {
        code: 'invalid_transition',
        reason: 'A draft is edited, not revised: revise a quote once it is published',
      };
    case 'expire':
      return {
        code: 'invalid_transition',
        reason: `A quote cannot go from ${state} to expired: a quote expires by itself once published and past validUntil`,
      };
    default:
      return { code: 'invalid_transition', reason: `A quote cannot go from ${state} to ${TARGET[trigger]}` };
  }
}

/** Whether the actor holds the row's permission (`null`: the caller checked it). */
function permitted(row: Transition, actor: LifecycleActor): Refusal | null {
  if (actor === null) return null;
  if (row.by === 'system' || actor === 'system') {
    if (row.by === actor) return null;
    return row.trigger === 'expire'
      ? noRow('expire', row.from)
      : { code: 'forbidden', reason: 'The service does not act for users' };
  }
  return isAllowed(actor.role, row.by)
    ? null
    : { code: 'forbidden', reason: 'Your role does not allow this operation' };
}

/**
 * Why the actor may not fire the trigger on the quote now (a pure function), or null when the
 * table allows it: no row from its state, no permission, or the guard's refusal.
 */
export function refusalOf(
  trigger: QuoteTrigger,
  quote: GuardQuote,
  actor: LifecycleActor,
  now = new Date(),
): Refusal | null {
  const row = transitionFor(trigger, quote.state);
  if (!row) return noRow(trigger, quote.state);
  return permitted(row, actor) ?? row.guard(quote, actor, now);
}

/** `may('publish', quote, actor)`: whether the table allows it. */
export const may = (trigger: QuoteTrigger, quote: GuardQuote, actor: LifecycleActor, now = new Date()) =>
  refusalOf(trigger, quote, actor, now) === null;

/** The actions the actor may take on the quote now, in the order of QUOTE_ACTIONS. */
export const allowedActions = (quote: GuardQuote, actor: { role: Role }, now = new Date()): QuoteAction[] =>
  QUOTE_ACTIONS.filter((action) => may(action, quote, actor, now));

export const refusalError = (refusal: Refusal) =>
  new AppError(refusal.code, refusal.reason, refusal.issues ? { issues: refusal.issues } : {});

/**
 * Throws (409 `quote_locked`) unless the quote may be edited (a draft): for every change of a
 * quote's fields or items (items.ts, PATCH of quote items). The route checks the permission.
 */
export function assertQuoteEditable(quote: GuardQuote) {
  const refusal = refusalOf('edit', quote, null);
  if (refusal) throw refusalError(refusal);
}

/** `Q-2026-00042`: year of publication and the organisation's sequence of that year. */
export const quoteCode = (year: number, n: number) => `Q-${year}-${String(n).padStart(5, '0')}`;

const DAY_MS = 86_400_000;

/** A validity from the request: a date alone is valid through that whole day (UTC). */
export function validityOf(value: string): Date {
  if (isDateOnly(value)) return new Date(toDate(value).getTime() + DAY_MS - 1);
  return new Date(value);
}

export const quoteLocked = (state: QuoteState) => refusalError(noRow('edit', state));

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

/** What a firing carries besides the quote: the edits (`PUT`), a reason, the order's fields. */
export type TransitionInput = {
  fields?: UpdateQuoteInput;
  reason?: string | null;
  customFields?: Record<string, unknown>;
  /**
   * An answer's evidence (acceptances module): who answered when that is not the actor (a guest
   * link answers for the buyer: no user), and the evidence the quote's event carries.
   */
  answer?: { respondedById: string | null; acceptance: Record<string, unknown> };
};

/** One firing of a row: what its effects read and change. */
export type Step = {
  tx: Tx;
  record: EventRecorder;
  /** The user, or null for the service itself. */
  actor: Actor | null;
  transition: Transition;
  /** The quote as locked when the change began. */
  before: QuoteRow;
  /** The quote as the effects left it so far. */
  quote: QuoteRow;
  input: TransitionInput;
  now: Date;
  /** What effects made besides the quote: the revision, the order. */
  made: { revisionId?: string; orderId?: string };
};

/** An effect: may refuse (throw), may change the quote (returns it). */
export type EffectHandler = (step: Step) => Promise<QuoteRow | undefined>;

/** Effects that need the rest of the quote service (relations, item copies, orders). */
export type ServiceEffects = Pick<
  Record<QuoteEffect, EffectHandler>,
  'applyFields' | 'copyIntoRevision' | 'createOrder'
>;

export function createQuoteLifecycle({
  db,
  change,
  effects: serviceEffects,
}: {
  db: Db;
  change: ChangeRunner;
  effects: ServiceEffects;
}) {
  /** Changes made by the service itself (expiry): no user. */
  const systemOf = (organisationId: string) => ({ organisationId, userId: null });

  const EFFECTS: Record<QuoteEffect, EffectHandler> = {
    ...serviceEffects,

    /** Elements whose brief has been priced since they were added take their price now. */
    async priceWaitingItems({ tx, record, quote, now }) {
      const items = await liveItemsOf(tx, quote.id);
      const repriced = await repriceInvalidItems(tx, quote, items);
      if (!repriced.length) return undefined;
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
      await recordItems(record, await refreshParents(tx, quote.id), 'UPDATE', [
        'totalPrice',
        'toolingCost',
        'deliveryCost',
        'valid',
      ]);
      return refreshQuoteTotals(tx, quote.id);
    },

    /** 422 `pricing_incomplete` while an item has no price (one issue per item). */
    async requireCompletePricing({ tx, quote }) {
      const current = await liveItemsOf(tx, quote.id);
      const incomplete = current.filter((i) => !i.valid && !i.parentId);
      if (current.length && !incomplete.length) return undefined;
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
    },

    /** The validity: 30 days when none is set; 422 `validity_passed` when it is not ahead. */
    async requireValidityAhead({ tx, quote, now }) {
      const validUntil = quote.validUntil ?? new Date(now.getTime() + DEFAULT_VALIDITY_DAYS * DAY_MS);
      if (validUntil.getTime() <= now.getTime()) {
        throw new AppError(
          'validity_passed',
          'validUntil has passed: set a later date to publish the quote',
          {
            issues: [{ pointer: '/validUntil', message: 'must be in the future to publish', in: 'body' }],
          },
        );
      }
      if (quote.validUntil) return undefined;
      return setQuote(tx, quote.id, { validUntil });
    },

    /** The next code of the year (gapless: the counter row is locked until the commit), published. */
    async assignCode({ tx, quote, now }) {
      const year = now.getUTCFullYear();
      const codeNumber = await allocateCodeNumber(tx, quote.organisationId, year);
      return setQuote(tx, quote.id, {
        state: 'published',
        code: quoteCode(year, codeNumber),
        codeYear: year,
        codeNumber,
        publishedAt: now,
        updatedAt: now,
      });
    },

    stampSigned: ({ tx, actor, quote, input, now }) =>
      setQuote(tx, quote.id, {
        state: 'signed',
        signedAt: now,
        respondedById: input.answer ? input.answer.respondedById : actor?.userId,
        updatedAt: now,
      }),

    stampRejected: ({ tx, actor, quote, input, now }) =>
      setQuote(tx, quote.id, {
        state: 'rejected',
        rejectedAt: now,
        rejectionReason: input.reason?.trim() || null,
        respondedById: input.answer ? input.answer.respondedById : actor?.userId,
        updatedAt: now,
      }),

    stampExpired: ({ tx, quote, now }) =>
      setQuote(tx, quote.id, { state: 'expired', expiredAt: now, updatedAt: now }),

    /**
     * The quote's UPDATE event (columns changed since the change began); `fieldName: state` when
     * the state moved; a conversion names the order relation. Nothing when nothing changed.
     */
    async recordUpdate({ record, transition, before, quote, input }) {
      if (quote === before) return undefined;
      if (input.answer) {
        // The accept / decline event carries the buyer's evidence (webhooks receive it).
        await record({
          on: QUOTE_ENTITY,
          type: 'UPDATE',
          entityId: quote.id,
          snapshot: { ...quote, acceptance: input.answer.acceptance },
          fieldName: 'state',
          updatedColumns: changedFields(before, quote),
          updatedRelations: ['acceptance'],
        });
      } else if (transition.trigger === 'convert') {
        await record({
          on: QUOTE_ENTITY,
          type: 'UPDATE',
          entityId: quote.id,
          snapshot: quote,
          updatedColumns: ['orderId'],
          updatedRelations: ['order'],
        });
      } else if (transition.trigger === 'expire') {
        await record({
          on: QUOTE_ENTITY,
          type: 'UPDATE',
          entityId: quote.id,
          snapshot: quote,
          fieldName: 'state',
          updatedColumns: ['state', 'expiredAt'],
          // The sweep runs for every organisation at once: the event is the quote's tenant's.
          organisationId: quote.organisationId,
        });
      } else {
        await recordQuoteUpdate(
          record,
          before,
          quote,
          transition.from !== transition.to ? 'state' : undefined,
        );
      }
      return undefined;
    },
  };

  /**
   * THE one way a quote changes state: finds the row of the table for the trigger and the quote's
   * state, checks who fires it and its guard (the refusal is thrown as the registry's error), then
   * runs the row's effects in order, in the caller's transaction (`tx`, the quote locked by it).
   */
  async function fire(
    tx: Tx,
    record: EventRecorder,
    options: {
      actor: Actor | null;
      quote: QuoteRow;
      trigger: QuoteTrigger;
      input?: TransitionInput;
      now?: Date;
    },
  ): Promise<Step> {
    const now = options.now ?? new Date();
    const who: LifecycleActor = options.actor ? { role: options.actor.role } : 'system';
    const refusal = refusalOf(options.trigger, options.quote, who, now);
    if (refusal) throw refusalError(refusal);
    const step: Step = {
      tx,
      record,
      actor: options.actor,
      transition: transitionFor(options.trigger, options.quote.state)!,
      before: options.quote,
      quote: options.quote,
      input: options.input ?? {},
      now,
      made: {},
    };
    for (const effect of step.transition.effects) {
      const next = await EFFECTS[effect](step);
      if (next) step.quote = next;
    }
    return step;
  }

  /** Fires `expire` on each due quote the batch locked (skipping those another change holds). */
  async function expireLocked(tx: Tx, record: EventRecorder, rows: QuoteRow[], now: Date) {
    for (const quote of rows) await fire(tx, record, { actor: null, quote, trigger: 'expire', now });
    return rows.length;
  }

  /** Expires one quote now if its validity has passed (its own transaction, with its event). */
  async function expireIfDue(organisationId: string, id: string) {
    return change(systemOf(organisationId), async (tx, record) => {
      const now = new Date();
      const rows = await lockDueQuotes(tx, { organisationId, quoteId: id, now });
      return (await expireLocked(tx, record, rows, now)) > 0;
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
          const now = options.now ?? new Date();
          const rows = await lockDueQuotes(tx, { ...options, now, limit: 500 });
          return expireLocked(tx, record, rows, now);
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

  return { fire, expireIfDue, expireAllDue, expireIfPastValidity };
}

export type QuoteLifecycle = ReturnType<typeof createQuoteLifecycle>;
