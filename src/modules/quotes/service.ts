import { and, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { QUOTE_STATES, type QuoteState, quoteItems, quotes } from '../../db/schema/quotes.ts';
import {
  type Actor,
  assertCompanyVisible,
  assertCompanyWritable,
  inCompanyScope,
  isCompanyScoped,
} from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { type ChangeRunner, changedFields, type EventRecorder } from '../../platform/events.ts';
import { likeEscape } from '../../platform/filters.ts';
import { pageOfIds } from '../../platform/list-paging.ts';
import { type PageOptions, type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import type { OrderService } from '../orders/service.ts';
import { createQuoteConversion } from './conversion.ts';
import { buildItems, itemTree, type QuoteTarget } from './items.ts';
import {
  createQuoteLifecycle,
  invalidTransition,
  quoteLocked,
  recordItems,
  recordQuoteUpdate,
  validityOf,
} from './lifecycle.ts';
import { currencyOf, resolveRelations } from './relations.ts';
import {
  findItemRow,
  findQuoteRow,
  findQuoteWithRefs,
  hasDue,
  hasItemOfOtherCompany,
  liveItemsOf,
  pdfFilesOf,
  QUOTE_ENTITY,
  type QuoteRow,
  type QuoteWithRefs,
  refreshParents,
  refreshQuoteTotals,
  selectQuoteSummaries,
  setQuote,
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

export type QuoteDetail = Awaited<ReturnType<ReturnType<typeof createQuoteService>['get']>>;

/**
 * Quotes: reads, lists, drafts and their items, revisions. The state machine (publish, respond,
 * expiry) is lifecycle.ts, the conversion to an order conversion.ts.
 */
export function createQuoteService({
  db,
  change,
  orders,
  onPublished,
}: {
  db: Db;
  change: ChangeRunner;
  /** Reads the order a conversion made, as the actor sees it. */
  orders: Pick<OrderService, 'get'>;
  /** Told once a publish has committed (the module queues the rendering of its stored PDFs). */
  onPublished?: (actor: Actor, quoteId: string) => Promise<void>;
}) {
  const { expireAllDue, expireIfPastValidity, publish, respond } = createQuoteLifecycle({ db, change });
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

  /** Runs a state change of a published quote after expiring it if its validity has passed. */
  async function transition(
    actor: Actor,
    id: string,
    apply: (tx: Tx, current: QuoteRow) => Promise<QuoteRow>,
    options: { write: boolean },
  ) {
    await expireIfPastValidity(actor.organisationId, id);
    await change(actor, async (tx, record) => {
      const current = await lockForChange(tx, actor, id, options);
      const after = await apply(tx, current);
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
      // Ids first, then the page's rows with their company and project (platform/list-paging.ts).
      const wholeOrganisation =
        !isCompanyScoped(actor) &&
        actor.role !== 'contact' &&
        !query.companyId &&
        !query.projectId &&
        !query.status &&
        !term;
      const found = await pageOfIds(db, {
        table: quotes,
        id: quotes.id,
        where,
        page,
        wholeOrganisation: wholeOrganisation
          ? { organisationId: actor.organisationId, entity: 'quotes' }
          : undefined,
      });
      const data = found.ids.length
        ? await selectQuoteSummaries(db)
            .where(inArray(quotes.id, found.ids))
            .orderBy(...page.orderBy)
        : [];
      const { meta } = pageResult(data, found.total, page);
      return { data, meta: { ...meta, hasNextPage: found.hasNextPage, totalIsExact: found.totalIsExact } };
    },

    async create(actor: Actor, input: CreateQuoteInput) {
      if (!input.briefIds?.length && !input.items?.length) {
        throw new AppError('quote_without_items', 'A quote needs at least one item: send briefIds or items', {
          status: 400,
          issues: [
            {
              pointer: '/items',
              message: 'at least one item (or a brief in briefIds) is required',
              in: 'body',
            },
          ],
        });
      }
      if (input.companyId) assertCompanyWritable(actor, input.companyId);
      const id = await change(actor, async (tx, record) => {
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
          throw new AppError('quote_without_items', 'The request gives no item', {
            issues: [{ pointer: '/items', message: 'at least one item is required', in: 'body' }],
          });
        }
        let quote = created!;
        if (!input.name) {
          // Named after its first line when no name is given.
          const renamed = await setQuote(tx, quote.id, { name: rows[0]!.name });
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
      await change(actor, async (tx, record) => {
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
          const updated = await setQuote(tx, id, { ...changes, updatedAt: new Date() });
          row = updated!;
        }
        if (to === 'published') row = await publish(tx, record, row);
        if (row !== current)
          await recordQuoteUpdate(record, current, row, to === 'published' ? 'state' : undefined);
      });
      if (to === 'published' && onPublished) await onPublished(actor, id);
      return read(actor, id);
    },

    /** POST /quotes/:id/quote-items: adds items to a draft. */
    async addItems(actor: Actor, id: string, items: ItemInput[]) {
      await change(actor, async (tx, record) => {
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
      await change(actor, async (tx, record) => {
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
          throw new AppError(
            'quote_without_items',
            'A quote keeps at least one item: add another item before removing this one',
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
      const newId = await change(actor, async (tx, record) => {
        const source = await lockForChange(tx, actor, id, { write: true });
        if (source.state === 'draft') {
          throw new AppError(
            'invalid_transition',
            'A draft is edited, not revised: revise a quote once it is published',
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
    convertToOrder: createQuoteConversion({ change, lockForChange, read, orders }),

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
    if (await hasItemOfOtherCompany(tx, quoteId, companyId)) {
      throw new AppError(
        'company_mismatch',
        'The quote has items of briefs or articles of its current company: remove them before changing company',
        {
          issues: [{ pointer: '/companyId', message: 'differs from the company of some items', in: 'body' }],
        },
      );
    }
  }
}

export type QuoteService = ReturnType<typeof createQuoteService>;
