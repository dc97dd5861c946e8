import { and, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { AppContext } from '../../context.ts';
import type { Executor, Tx } from '../../db/client.ts';
import { briefElements, briefs } from '../../db/schema/briefs.ts';
import { articles } from '../../db/schema/orders.ts';
import { currencies } from '../../db/schema/organisation-data.ts';
import { organisations } from '../../db/schema/platform.ts';
import { QUOTE_STATES, type QuoteState, quoteItems, quotes } from '../../db/schema/quotes.ts';
import {
  type Actor,
  assertCompanyVisible,
  assertCompanyWritable,
  inCompanyScope,
} from '../../platform/actor.ts';
import { badRequest, conflict, notFound, unprocessable } from '../../platform/errors.ts';
import { changedFields, type EventRecorder } from '../../platform/events.ts';
import { isDateOnly, likeEscape, toDate } from '../../platform/filters.ts';
import { type PageOptions, type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { invalidReference, liveAddress, liveCompany, liveProject } from '../../platform/references.ts';
import type { CustomFieldValue } from '../../platform/schemas.ts';
import { findArticleOfElement, insertArticleInTransaction } from '../articles/in-transaction.ts';
import {
  insertOrderInTransaction,
  insertOrderItemsInTransaction,
  type NewOrderItem,
} from '../orders/in-transaction.ts';
import { createOrderService } from '../orders/service.ts';
import { buildItems, type QuoteTarget, repriceInvalidItems } from './items.ts';
import {
  allocateCodeNumber,
  expireDue,
  findContact,
  findItemRow,
  findQuoteRow,
  findQuoteWithRefs,
  hasDue,
  liveItemsOf,
  pdfFilesOf,
  QUOTE_ENTITY,
  QUOTE_ITEM_ENTITY,
  type QuoteItemRow,
  type QuoteRow,
  type QuoteWithRefs,
  refreshParents,
  refreshQuoteTotals,
  selectQuoteSummaries,
} from './repository.ts';
import type { CreateQuoteInput, ItemInput, UpdateQuoteInput } from './schemas.ts';

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

export type QuoteListQuery = PageQuery & {
  search?: string;
  status?: string;
  projectId?: string;
  companyId?: string;
};

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

const isPastValidity = (row: Pick<QuoteRow, 'state' | 'validUntil'>, now: Date) =>
  row.state === 'published' && row.validUntil !== null && row.validUntil.getTime() < now.getTime();

export const quoteLocked = (state: QuoteState) =>
  conflict(
    `The quote is ${state} and locked: only a draft can be changed (make a revision to change it)`,
    'quote_locked',
  );

export const invalidTransition = (from: QuoteState, to: QuoteState | string, why?: string) =>
  conflict(`A quote cannot go from ${from} to ${to}${why ? `: ${why}` : ''}`, 'invalid_transition');

/** Item fields as the API shows them, children under their parent. */
export function itemTree(rows: QuoteItemRow[]) {
  const byPosition = (a: QuoteItemRow, b: QuoteItemRow) => a.position - b.position || (a.id < b.id ? -1 : 1);
  const children = new Map<string, QuoteItemRow[]>();
  for (const row of rows) {
    if (!row.parentId) continue;
    const list = children.get(row.parentId) ?? [];
    list.push(row);
    children.set(row.parentId, list);
  }
  return rows
    .filter((r) => !r.parentId)
    .sort(byPosition)
    .map((root) => ({ ...root, children: (children.get(root.id) ?? []).sort(byPosition) }));
}

export type QuoteDetail = Awaited<ReturnType<ReturnType<typeof createQuoteService>['get']>>;

export function createQuoteService(ctx: AppContext) {
  const { db } = ctx;
  const orderService = createOrderService(ctx);
  /** Changes made by the service itself (expiry): no user. */
  const systemOf = (organisationId: string) => ({ organisationId, userId: null });

  const recordItems = async (
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
    return ctx.change(systemOf(organisationId), async (tx, record) => {
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
      const count = await ctx.change(
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

  /** Contacts only see quotes that were sent to them: drafts are internal. */
  const hiddenFrom = (actor: Actor, state: QuoteState) => actor.role === 'contact' && state === 'draft';

  /** The quote as its reader may see it, expired first if its validity has passed. */
  async function visible(actor: Actor, id: string): Promise<QuoteWithRefs> {
    let found = await findQuoteWithRefs(db, actor.organisationId, id);
    if (found && (await expireIfPastValidity(actor.organisationId, id, found))) {
      found = await findQuoteWithRefs(db, actor.organisationId, id);
    }
    if (!found) throw notFound('Quote');
    assertCompanyVisible(actor, found.companyId, 'Quote');
    if (hiddenFrom(actor, found.state)) throw notFound('Quote');
    return found;
  }

  async function present(actor: Actor, found: QuoteWithRefs) {
    const [items, pdfs] = await Promise.all([
      liveItemsOf(db, found.id),
      pdfFilesOf(db, actor.organisationId, found.id),
    ]);
    const {
      organisationName: _organisation,
      deletedAt: _deleted,
      ...quote
    } = found as QuoteWithRefs & {
      deletedAt?: unknown;
    };
    return {
      ...quote,
      items: itemTree(items),
      pdfs: pdfs.map((file) => ({
        ...file,
        localisationId: file.label ?? '',
        url: `/api/quotes/${found.id}/localisation/${file.label}`,
      })),
    };
  }

  async function read(actor: Actor, id: string) {
    return present(actor, await visible(actor, id));
  }

  /**
   * The quote locked for a change by the actor: 404 when it does not exist or is not visible,
   * 403 when the actor may not write to its company.
   */
  async function lockForChange(tx: Tx, actor: Actor, id: string, options: { write: boolean }) {
    const row = await findQuoteRow(tx, actor.organisationId, id, true);
    if (!row) throw notFound('Quote');
    assertCompanyVisible(actor, row.companyId, 'Quote');
    if (hiddenFrom(actor, row.state)) throw notFound('Quote');
    if (options.write) assertCompanyWritable(actor, row.companyId);
    return row;
  }

  /** Refuses (409) a change of a quote that is no longer a draft. */
  function assertDraft(row: QuoteRow) {
    if (row.state !== 'draft') throw quoteLocked(row.state);
  }

  /**
   * Checks the relations of a quote as they will be after a change: the project, contact and
   * address must belong to the company (422), the company must be writable by the actor (403).
   */
  async function resolveRelations(
    tx: Executor,
    actor: Actor,
    next: {
      companyId: string | null;
      projectId: string | null;
      contactId: string | null;
      addressId: string | null;
    },
    sent: Partial<Record<'companyId' | 'projectId' | 'contactId' | 'addressId', unknown>>,
  ) {
    const org = actor.organisationId;
    const companyChanged = 'companyId' in sent;
    if (next.projectId && ('projectId' in sent || companyChanged)) {
      const project = await liveProject(tx, org, next.projectId);
      if (!next.companyId) next.companyId = project.companyId;
      if (project.companyId !== next.companyId) {
        throw unprocessable(
          'The project belongs to another company than the quote',
          'project_company_mismatch',
          [{ pointer: '/projectId', message: 'is a project of another company', in: 'body' }],
        );
      }
    }
    if (!next.companyId) {
      throw badRequest('A quote is for a company: send companyId (or a projectId, whose company is taken)', [
        { pointer: '/companyId', message: 'is required when projectId is not given', in: 'body' },
      ]);
    }
    assertCompanyWritable(actor, next.companyId);
    if (companyChanged) await liveCompany(tx, org, next.companyId);
    let contact: Awaited<ReturnType<typeof findContact>>;
    if (next.contactId && ('contactId' in sent || companyChanged)) {
      contact = await findContact(tx, org, next.contactId, next.companyId);
      if (!contact) throw invalidReference('/contactId', 'contact');
      if (!contact.linked) {
        throw unprocessable('The contact is not a contact of the quote company', 'contact_company_mismatch', [
          { pointer: '/contactId', message: 'is not linked to the company', in: 'body' },
        ]);
      }
    }
    if (next.addressId && ('addressId' in sent || companyChanged)) {
      const address = await liveAddress(tx, org, next.addressId, '/addressId');
      if (address.companyId !== next.companyId) {
        throw unprocessable(
          'The address must be an address of the quote company',
          'address_company_mismatch',
          [{ pointer: '/addressId', message: 'is not an address of the company', in: 'body' }],
        );
      }
    }
    return { companyId: next.companyId, contact };
  }

  /**
   * The currency of a new quote: that of the first requested brief already priced, else the
   * organisation's base currency. Items priced in another currency are not valid.
   */
  async function currencyOf(tx: Executor, organisationId: string, input: CreateQuoteInput) {
    const elementIds = (input.items ?? []).flatMap((i) => (i.briefElementId ? [i.briefElementId] : []));
    const elementBriefs = elementIds.length
      ? await tx
          .select({ id: briefElements.id, briefId: briefElements.briefId })
          .from(briefElements)
          .where(and(inArray(briefElements.id, elementIds), eq(briefElements.organisationId, organisationId)))
      : [];
    const briefOfElement = new Map(elementBriefs.map((e) => [e.id, e.briefId]));
    const ordered = [
      ...(input.briefIds ?? []),
      ...(input.items ?? []).flatMap((i) =>
        i.briefElementId ? [briefOfElement.get(i.briefElementId) ?? ''] : i.briefId ? [i.briefId] : [],
      ),
    ].filter(Boolean);
    if (ordered.length) {
      const priced = await tx
        .select({ id: briefs.id, currency: briefs.currency })
        .from(briefs)
        .where(
          and(
            inArray(briefs.id, ordered),
            eq(briefs.organisationId, organisationId),
            eq(briefs.predictionStatus, 'COMPLETED'),
            isNull(briefs.deletedAt),
          ),
        );
      const byId = new Map(priced.map((b) => [b.id, b.currency]));
      for (const id of ordered) {
        const currency = byId.get(id);
        if (currency) return currency;
      }
    }
    const [org] = await tx
      .select({ currency: organisations.baseCurrency })
      .from(organisations)
      .where(eq(organisations.id, organisationId));
    return org?.currency ?? 'EUR';
  }

  /** Inserts built item rows, brings parents and totals up to date, records the events. */
  async function insertItems(
    tx: Tx,
    record: EventRecorder,
    quote: QuoteRow,
    rows: Awaited<ReturnType<typeof buildItems>>,
  ) {
    const inserted = rows.length ? await tx.insert(quoteItems).values(rows).returning() : [];
    const parents = await refreshParents(tx, quote.id);
    const after = await refreshQuoteTotals(tx, quote.id);
    const fresh = new Map(parents.map((p) => [p.id, p]));
    await recordItems(
      record,
      inserted.map((row) => fresh.get(row.id) ?? row),
      'CREATE',
    );
    const insertedIds = new Set(inserted.map((r) => r.id));
    await recordItems(
      record,
      parents.filter((p) => !insertedIds.has(p.id)),
      'UPDATE',
      ['totalPrice', 'toolingCost', 'deliveryCost', 'valid'],
    );
    return after;
  }

  /** Draft to published: pricing complete (422), validity ahead (422), the next code. */
  async function publish(tx: Tx, record: EventRecorder, quote: QuoteRow): Promise<QuoteRow> {
    const now = new Date();
    // Elements whose brief has been priced since they were added take their price now.
    const items = await liveItemsOf(tx, quote.id);
    const repriced = await repriceInvalidItems(tx, quote, items);
    for (const { item, pricing } of repriced) {
      const [row] = await tx
        .update(quoteItems)
        .set({ ...pricing, updatedAt: now })
        .where(eq(quoteItems.id, item.id))
        .returning();
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
      throw unprocessable(
        `The pricing of ${leaves.length} item(s) is not complete: the quote cannot be published until every item has a price`,
        'pricing_incomplete',
        leaves.map((i) => ({
          pointer: '/state',
          message: `item ${i.id} (${i.name}) has no complete price${i.briefElementId ? ' (its brief has no COMPLETED prediction, or another quantity)' : ''}`,
          in: 'body' as const,
        })),
      );
    }
    let validUntil = quote.validUntil;
    if (!validUntil) validUntil = new Date(now.getTime() + DEFAULT_VALIDITY_DAYS * DAY_MS);
    if (validUntil.getTime() <= now.getTime()) {
      throw unprocessable('validUntil has passed: set a later date to publish the quote', 'validity_passed', [
        { pointer: '/validUntil', message: 'must be in the future to publish', in: 'body' },
      ]);
    }
    const year = now.getUTCFullYear();
    const codeNumber = await allocateCodeNumber(tx, quote.organisationId, year);
    const [row] = await tx
      .update(quotes)
      .set({
        state: 'published',
        code: quoteCode(year, codeNumber),
        codeYear: year,
        codeNumber,
        publishedAt: now,
        validUntil,
        updatedAt: now,
      })
      .where(eq(quotes.id, quote.id))
      .returning();
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
    const [row] = await tx
      .update(quotes)
      .set(
        to === 'signed'
          ? { state: 'signed', signedAt: now, respondedById: actor.userId, updatedAt: now }
          : {
              state: 'rejected',
              rejectedAt: now,
              rejectionReason: reason?.trim() || null,
              respondedById: actor.userId,
              updatedAt: now,
            },
      )
      .where(eq(quotes.id, quote.id))
      .returning();
    return row!;
  }

  const recordQuoteUpdate = (record: EventRecorder, before: QuoteRow, after: QuoteRow, fieldName?: string) =>
    record({
      on: QUOTE_ENTITY,
      type: 'UPDATE',
      entityId: after.id,
      snapshot: after,
      updatedColumns: changedFields(before, after),
      ...(fieldName ? { fieldName } : {}),
    });

  /** Runs a state change of a published quote after expiring it if its validity has passed. */
  async function transition(
    actor: Actor,
    id: string,
    change: (tx: Tx, current: QuoteRow) => Promise<QuoteRow>,
    options: { write: boolean },
  ) {
    await expireIfPastValidity(actor.organisationId, id);
    await ctx.change(actor, async (tx, record) => {
      const current = await lockForChange(tx, actor, id, options);
      const after = await change(tx, current);
      await recordQuoteUpdate(record, current, after, 'state');
    });
    return read(actor, id);
  }

  const FIELD_KEYS = [
    'name',
    'projectId',
    'companyId',
    'contactId',
    'addressId',
    'email',
    'phoneNumber',
    'receiverName',
    'validUntil',
  ] as const;

  return {
    get: read,

    /** 404 unless the quote exists, is live and visible to the actor. */
    async assertVisible(actor: Actor, id: string) {
      await visible(actor, id);
    },

    /** The quote with what its PDF shows (company, contact, address, organisation name). */
    visibleWithRefs: visible,

    async list(actor: Actor, query: QuoteListQuery) {
      const page = resolvePage(query, QUOTE_PAGE);
      if (await hasDue(db, actor.organisationId))
        await expireAllDue({ organisationId: actor.organisationId });
      const conditions: (SQL | undefined)[] = [
        eq(quotes.organisationId, actor.organisationId),
        isNull(quotes.deletedAt),
        inCompanyScope(actor, quotes.companyId),
        actor.role === 'contact' ? ne(quotes.state, 'draft') : undefined,
        query.companyId ? eq(quotes.companyId, query.companyId) : undefined,
        query.projectId ? eq(quotes.projectId, query.projectId) : undefined,
      ];
      if (query.status) {
        const states = query.status
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean);
        const bad = states.filter((s) => !QUOTE_STATES.includes(s as QuoteState));
        if (!states.length || bad.length) {
          throw badRequest('status must be a comma-separated list of quote states', [
            { pointer: '/status', message: `must be among ${QUOTE_STATES.join(', ')}`, in: 'query' },
          ]);
        }
        conditions.push(inArray(quotes.state, states as QuoteState[]));
      }
      const term = query.search?.trim();
      if (term) {
        const pattern = `%${likeEscape(term)}%`;
        conditions.push(or(ilike(quotes.name, pattern), ilike(quotes.code, pattern)));
      }
      const where = and(...conditions);
      const [data, counted] = await Promise.all([
        selectQuoteSummaries(db)
          .where(where)
          .orderBy(...page.orderBy)
          .limit(page.limit)
          .offset(page.offset),
        db.select({ total: sql<number>`count(*)::int` }).from(quotes).where(where),
      ]);
      return pageResult(data, counted[0]?.total ?? 0, page);
    },

    async create(actor: Actor, input: CreateQuoteInput) {
      if (!input.briefIds?.length && !input.items?.length) {
        throw badRequest(
          'A quote needs at least one item: send briefIds or items',
          [
            {
              pointer: '/items',
              message: 'at least one item (or a brief in briefIds) is required',
              in: 'body',
            },
          ],
          'quote_without_items',
        );
      }
      if (input.companyId) assertCompanyWritable(actor, input.companyId);
      const id = await ctx.change(actor, async (tx, record) => {
        const org = actor.organisationId;
        const next = {
          companyId: input.companyId ?? null,
          projectId: input.projectId ?? null,
          contactId: input.contactId ?? null,
          addressId: input.addressId ?? null,
        };
        const { companyId, contact } = await resolveRelations(tx, actor, next, {
          ...input,
          companyId: next.companyId,
        });
        const currency = await currencyOf(tx, org, input);
        const contactName = [contact?.firstName, contact?.lastName].filter(Boolean).join(' ');
        const [created] = await tx
          .insert(quotes)
          .values({
            id: uuidv7(),
            organisationId: org,
            name: input.name ?? 'Quote',
            state: 'draft',
            projectId: next.projectId,
            companyId,
            contactId: next.contactId,
            addressId: next.addressId,
            email: input.email ?? contact?.email ?? null,
            phoneNumber: input.phoneNumber ?? contact?.phoneNumber ?? null,
            receiverName: input.receiverName ?? (contactName || null),
            validUntil: input.validUntil ? validityOf(input.validUntil) : null,
            currency,
            createdById: actor.userId,
          })
          .returning();
        const target: QuoteTarget = { ...created!, companyId };
        const rows = await buildItems(
          tx,
          target,
          input,
          { briefIds: '/briefIds', items: '/items' },
          actor.userId,
        );
        if (!rows.length) {
          throw unprocessable('The request gives no item', 'quote_without_items', [
            { pointer: '/items', message: 'at least one item is required', in: 'body' },
          ]);
        }
        let quote = created!;
        if (!input.name) {
          // Named after its first line when no name is given.
          const [renamed] = await tx
            .update(quotes)
            .set({ name: rows[0]!.name })
            .where(eq(quotes.id, quote.id))
            .returning();
          quote = renamed!;
        }
        const after = await insertItemsCreate(tx, record, quote, rows);
        return after.id;
      });
      return read(actor, id);
    },

    /**
     * PUT /quotes/:id: edits a draft, and/or moves the quote to another state (`state`). A quote
     * that is no longer a draft accepts only a state change (409 `quote_locked` otherwise).
     */
    async update(actor: Actor, id: string, input: UpdateQuoteInput) {
      const to = input.state;
      const fields = FIELD_KEYS.filter((key) => input[key] !== undefined);
      if (input.rejectionReason !== undefined && to !== 'rejected') {
        throw badRequest('rejectionReason goes with state rejected', [
          { pointer: '/rejectionReason', message: 'is only accepted with state "rejected"', in: 'body' },
        ]);
      }
      if (to === 'signed' || to === 'rejected') {
        if (fields.length) {
          const row = await findQuoteRow(db, actor.organisationId, id);
          if (row && row.state !== 'draft') throw quoteLocked(row.state);
        }
        return transition(
          actor,
          id,
          (tx, current) => respond(tx, actor, current, to, input.rejectionReason),
          {
            write: true,
          },
        );
      }
      await expireIfPastValidity(actor.organisationId, id);
      await ctx.change(actor, async (tx, record) => {
        const current = await lockForChange(tx, actor, id, { write: true });
        if (current.state !== 'draft') {
          if (fields.length) throw quoteLocked(current.state);
          throw invalidTransition(current.state, to ?? current.state);
        }
        if (to && to !== 'draft' && to !== 'published') {
          throw invalidTransition(
            'draft',
            to,
            to === 'expired' ? 'a quote expires by itself once published and past validUntil' : undefined,
          );
        }
        let row = current;
        if (fields.length) {
          const next = {
            companyId: input.companyId ?? current.companyId,
            projectId: input.projectId === undefined ? current.projectId : input.projectId,
            contactId: input.contactId === undefined ? current.contactId : input.contactId,
            addressId: input.addressId === undefined ? current.addressId : input.addressId,
          };
          const sent: Record<string, unknown> = {};
          for (const key of ['projectId', 'contactId', 'addressId'] as const)
            if (input[key] !== undefined) sent[key] = input[key];
          if (input.companyId !== undefined && input.companyId !== current.companyId) {
            sent.companyId = input.companyId;
            await assertItemsOfCompany(tx, current.id, input.companyId);
          }
          const { companyId } = await resolveRelations(tx, actor, next, sent);
          const changes: Partial<QuoteRow> = { ...next, companyId };
          if (input.name !== undefined) changes.name = input.name;
          if (input.email !== undefined) changes.email = input.email;
          if (input.phoneNumber !== undefined) changes.phoneNumber = input.phoneNumber;
          if (input.receiverName !== undefined) changes.receiverName = input.receiverName;
          if (input.validUntil !== undefined)
            changes.validUntil = input.validUntil === null ? null : validityOf(input.validUntil);
          const [updated] = await tx
            .update(quotes)
            .set({ ...changes, updatedAt: new Date() })
            .where(eq(quotes.id, id))
            .returning();
          row = updated!;
        }
        if (to === 'published') row = await publish(tx, record, row);
        if (row !== current)
          await recordQuoteUpdate(record, current, row, to === 'published' ? 'state' : undefined);
      });
      return read(actor, id);
    },

    /** POST /quotes/:id/quote-items: adds items to a draft. */
    async addItems(actor: Actor, id: string, items: ItemInput[]) {
      await ctx.change(actor, async (tx, record) => {
        const current = await lockForChange(tx, actor, id, { write: true });
        assertDraft(current);
        const rows = await buildItems(
          tx,
          current,
          { items },
          { briefIds: '/briefIds', items: '/items' },
          actor.userId,
        );
        const after = await insertItems(tx, record, current, rows);
        await record({
          on: QUOTE_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: after,
          updatedColumns: changedFields(current, after),
          updatedRelations: ['items'],
        });
      });
      return read(actor, id);
    },

    /**
     * DELETE /quotes/:id/quote-items/:itemId: removes an item of a draft; a parent goes with its
     * children, and a parent whose last child goes is removed too. The last item cannot go (422).
     */
    async removeItem(actor: Actor, id: string, itemId: string) {
      await ctx.change(actor, async (tx, record) => {
        const current = await lockForChange(tx, actor, id, { write: true });
        const item = await findItemRow(tx, actor.organisationId, itemId);
        if (!item || item.quoteId !== id) throw notFound('Quote item');
        assertDraft(current);
        const items = await liveItemsOf(tx, id);
        const ids = new Set([item.id, ...items.filter((i) => i.parentId === item.id).map((i) => i.id)]);
        if (item.parentId && !items.some((i) => i.parentId === item.parentId && !ids.has(i.id))) {
          ids.add(item.parentId);
        }
        if (items.every((i) => ids.has(i.id))) {
          throw unprocessable(
            'A quote keeps at least one item: add another item before removing this one',
            'quote_without_items',
          );
        }
        const now = new Date();
        const removed = await tx
          .update(quoteItems)
          .set({ deletedAt: now, updatedAt: now })
          .where(and(inArray(quoteItems.id, [...ids]), isNull(quoteItems.deletedAt)))
          .returning();
        await recordItems(record, removed, 'DELETE');
        const parents = await refreshParents(tx, id);
        await recordItems(record, parents, 'UPDATE', ['totalPrice', 'toolingCost', 'deliveryCost', 'valid']);
        const after = await refreshQuoteTotals(tx, id);
        await record({
          on: QUOTE_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: after,
          updatedColumns: changedFields(current, after),
          updatedRelations: ['items'],
        });
      });
      return read(actor, id);
    },

    /** The client accepts: published -> signed. */
    accept: (actor: Actor, id: string) =>
      transition(actor, id, (tx, current) => respond(tx, actor, current, 'signed'), { write: false }),

    /** The client declines: published -> rejected, with an optional reason. */
    decline: (actor: Actor, id: string, reason?: string) =>
      transition(actor, id, (tx, current) => respond(tx, actor, current, 'rejected', reason), {
        write: false,
      }),

    /**
     * POST /quotes/:id/revisions: a new draft copying a quote that is no longer a draft (its
     * fields and items, prices as they were), version = the lineage's highest + 1.
     */
    async revise(actor: Actor, id: string) {
      await expireIfPastValidity(actor.organisationId, id);
      const newId = await ctx.change(actor, async (tx, record) => {
        const source = await lockForChange(tx, actor, id, { write: true });
        if (source.state === 'draft') {
          throw conflict(
            'A draft is edited, not revised: revise a quote once it is published',
            'invalid_transition',
          );
        }
        const rootId = source.rootQuoteId ?? source.id;
        // The lineage's original, locked: revisions of one lineage are numbered one at a time.
        await tx.select({ id: quotes.id }).from(quotes).where(eq(quotes.id, rootId)).for('update');
        const [latest] = await tx
          .select({ version: sql<number>`max(${quotes.version})::int` })
          .from(quotes)
          .where(or(eq(quotes.id, rootId), eq(quotes.rootQuoteId, rootId)));
        const now = new Date();
        const [created] = await tx
          .insert(quotes)
          .values({
            id: uuidv7(),
            organisationId: source.organisationId,
            name: source.name,
            state: 'draft',
            version: (latest?.version ?? source.version) + 1,
            parentQuoteId: source.id,
            rootQuoteId: rootId,
            projectId: source.projectId,
            companyId: source.companyId,
            contactId: source.contactId,
            addressId: source.addressId,
            email: source.email,
            phoneNumber: source.phoneNumber,
            receiverName: source.receiverName,
            validUntil:
              source.validUntil && source.validUntil.getTime() > now.getTime() ? source.validUntil : null,
            currency: source.currency,
            createdById: actor.userId,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        const items = await liveItemsOf(tx, source.id);
        const newIds = new Map(items.map((i) => [i.id, uuidv7()]));
        const copies = items
          .sort((a, b) => Number(Boolean(a.parentId)) - Number(Boolean(b.parentId)))
          .map(({ id: oldId, createdAt: _c, updatedAt: _u, deletedAt: _d, ...item }) => ({
            ...item,
            id: newIds.get(oldId)!,
            quoteId: created!.id,
            parentId: item.parentId ? newIds.get(item.parentId)! : null,
            createdById: actor.userId,
            createdAt: now,
            updatedAt: now,
          }));
        await insertItemsCreate(tx, record, created!, copies);
        return created!.id;
      });
      return read(actor, newId);
    },

    /**
     * POST /quotes/:id/order: the order of a signed quote, once. Each quote item becomes an order
     * item (parents kept); an element gets the article of the company linked to it, or a new one
     * (code from the quote code); tooling and delivery become service lines under it. The quote
     * keeps the order's id.
     */
    async convertToOrder(actor: Actor, id: string, input: { customFields?: Record<string, unknown> } = {}) {
      const orderId = await ctx.change(actor, async (tx, record) => {
        const quote = await lockForChange(tx, actor, id, { write: true });
        if (quote.orderId) {
          throw conflict('The quote has already been converted into an order', 'already_converted');
        }
        if (quote.state !== 'signed') {
          throw conflict(
            `Only a signed quote becomes an order (this one is ${quote.state})`,
            'quote_not_signed',
          );
        }
        const org = actor.organisationId;
        const [currency] = await tx
          .select({ id: currencies.id })
          .from(currencies)
          .where(
            and(
              eq(currencies.organisationId, org),
              eq(currencies.code, quote.currency),
              isNull(currencies.deletedAt),
            ),
          )
          .limit(1);
        const now = new Date();
        const order = await insertOrderInTransaction(
          tx,
          actor,
          {
            companyId: quote.companyId,
            projectId: quote.projectId,
            shippingAddressId: quote.addressId,
            currencyId: currency?.id ?? null,
            billedAmount: quote.totalPrice,
            orderDate: now,
            customFields: input.customFields,
          },
          record,
        );
        const tree = itemTree(await liveItemsOf(tx, quote.id));
        const lines: NewOrderItem[] = [];
        // Tooling (position 1) and delivery (position 2) of a line: service lines below it.
        const extras = (item: QuoteItemRow, parentId: string) => {
          for (const [amount, position] of [
            [item.toolingCost, 1],
            [item.deliveryCost, 2],
          ] as const) {
            if (amount > 0) {
              lines.push({
                parentId,
                articleId: null,
                quantity: 1,
                unitPrice: amount,
                unit: 'service',
                position,
              });
            }
          }
        };
        const articleFor = async (item: QuoteItemRow, code: string) => {
          if (item.articleId) return item.articleId;
          if (!item.briefElementId) return null;
          const existing = await findArticleOfElement(tx, org, quote.companyId, item.briefElementId);
          if (existing) return existing.id;
          const article = await insertArticleInTransaction(
            tx,
            actor,
            {
              companyId: quote.companyId,
              name: item.name,
              code,
              description: item.description,
              price: item.price,
              briefElementId: item.briefElementId,
              currencyId: currency?.id ?? null,
            },
            record,
          );
          return article.id;
        };
        const lineOf = async (item: QuoteItemRow, parentId: string | null, code: string) => {
          const lineId = uuidv7();
          lines.push({
            id: lineId,
            parentId,
            articleId: await articleFor(item, code),
            quantity: item.quantity,
            unitPrice: item.price,
            totalPrice: item.price === null ? 0 : undefined,
            unit: 'pieces',
            position: item.position,
          });
          extras(item, lineId);
        };
        for (const root of tree) {
          if (root.children.length) {
            const groupId = uuidv7();
            lines.push({
              id: groupId,
              parentId: null,
              articleId: null,
              quantity: 1,
              unitPrice: null,
              totalPrice: 0,
              unit: null,
              position: root.position,
            });
            for (const child of root.children) {
              await lineOf(child, groupId, `${quote.code}-${root.position}.${child.position}`);
            }
          } else {
            await lineOf(root, null, `${quote.code}-${root.position}`);
          }
        }
        await insertOrderItemsInTransaction(tx, actor, order.id, lines, record);
        const [after] = await tx
          .update(quotes)
          .set({ orderId: order.id, updatedAt: now })
          .where(eq(quotes.id, quote.id))
          .returning();
        await record({
          on: QUOTE_ENTITY,
          type: 'UPDATE',
          entityId: quote.id,
          snapshot: after!,
          updatedColumns: ['orderId'],
          updatedRelations: ['order'],
        });
        return order.id;
      });
      const [quote, order] = await Promise.all([read(actor, id), orderService.get(actor, orderId)]);
      // Custom field values were checked when written: the schema's value union.
      return { quote, order: order as typeof order & { customFields: Record<string, CustomFieldValue> } };
    },

    /** The scheduled sweep: expires every quote whose validity has passed. */
    expireDue: expireAllDue,
  };

  /** Inserts the items of a new quote (its CREATE event first, then the items'). */
  async function insertItemsCreate(
    tx: Tx,
    record: EventRecorder,
    quote: QuoteRow,
    rows: Parameters<typeof insertItems>[3],
  ) {
    const inserted = rows.length ? await tx.insert(quoteItems).values(rows).returning() : [];
    await refreshParents(tx, quote.id);
    const after = await refreshQuoteTotals(tx, quote.id);
    const items = await liveItemsOf(tx, quote.id);
    await record({ on: QUOTE_ENTITY, type: 'CREATE', entityId: after.id, snapshot: after });
    const insertedIds = new Set(inserted.map((r) => r.id));
    await recordItems(
      record,
      items.filter((i) => insertedIds.has(i.id)),
      'CREATE',
    );
    return after;
  }

  /** Refuses (422) a change of company while items quote briefs or articles of the current one. */
  async function assertItemsOfCompany(tx: Executor, quoteId: string, companyId: string) {
    const [other] = await tx
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
    if (other) {
      throw unprocessable(
        'The quote has items of briefs or articles of its current company: remove them before changing company',
        'company_mismatch',
        [{ pointer: '/companyId', message: 'differs from the company of some items', in: 'body' }],
      );
    }
  }
}

export type QuoteService = ReturnType<typeof createQuoteService>;
