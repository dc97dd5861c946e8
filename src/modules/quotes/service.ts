import { v7 as uuidv7 } from 'uuid';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { QUOTE_STATES, type QuoteState } from '../../db/schema/quotes.ts';
import {
  type Actor,
  assertCompanyVisible,
  assertCompanyWritable,
  isCompanyScoped,
  isCompanyVisible,
} from '../../platform/actor.ts';
import { type Audience, audienceOf, pick } from '../../platform/audience.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { type ChangeRunner, changedFields, type EventRecorder } from '../../platform/events.ts';
import { toolingLines, variantLines } from '../../platform/line-parts.ts';
import { roundCents } from '../../platform/money.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { localisedLine } from '../catalogue/line-names.ts';
import { type CatalogueWithNames, loadCatalogueWithNames } from '../catalogue/loader.ts';
import type { OrderService } from '../orders/service.ts';
import type { OrganisationSettingsService } from '../organisations/settings-service.ts';
import { type VatDecision, vatTotals } from '../organisations/vat.ts';
import { createOrderOfQuote, createQuoteConversion } from './conversion.ts';
import { checkItemEdit, isGroupLine, lineMoneyAfter, moveItem } from './item-edits.ts';
import { buildItems, itemTree, type QuoteTarget } from './items.ts';
import {
  allowedActions,
  assertQuoteEditable,
  createQuoteLifecycle,
  type EffectHandler,
  invalidTransition,
  type QuoteTrigger,
  recordItems,
  TRIGGER_OF_STATE,
  type TransitionInput,
  validityOf,
} from './lifecycle.ts';
import { discountOf } from './line-money.ts';
import { listQuoteSummaries, QUOTE_PAGE } from './list-repository.ts';
import { priceBreaksAfter, quoteColumns } from './price-breaks.ts';
import { currencyOf, resolveRelations } from './relations.ts';
import {
  findItemRow,
  findOrderRef,
  findQuoteRow,
  findQuoteWithRefs,
  hasDue,
  hasItemOfOtherCompany,
  liveItemsOf,
  pdfFilesOf,
  QUOTE_ENTITY,
  type QuoteItemRow,
  type QuoteRow,
  type QuoteWithRefs,
  refreshParents,
  refreshQuoteTotals,
  setQuote,
  setQuoteItem,
} from './repository.ts';
import {
  BUYER_ITEM_KEYS,
  BUYER_PRICE_BREAK_KEYS,
  type CreateQuoteInput,
  type ItemInput,
  TERMS_KEYS,
  type UpdateItemInput,
  type UpdateQuoteInput,
} from './schemas.ts';
import {
  insertQuote,
  insertQuoteItems,
  lockLineageVersion,
  softDeleteQuoteItems,
} from './write-repository.ts';

/**
 * A quote item as its reader may see it: staff with `costs:read` get the engine's price, amount,
 * cost and the margin the line makes; anyone else only the buyer's allowlist (schemas.ts).
 */
export const itemView =
  (audience: Audience, currency: string, { catalogue, names }: CatalogueWithNames) =>
  (stored: QuoteItemRow) => {
    const net = stored.amount === null ? null : roundCents(stored.amount - discountOf(stored.amount, stored));
    const row = {
      ...stored,
      localised: localisedLine(stored, catalogue, names),
      variants: variantLines(stored.variants, stored.quantity, net),
      // A brief's group line: its tools are its lines' (shown under them), not its own.
      tooling:
        stored.briefId && !stored.briefElementId ? [] : toolingLines(stored.tooling, stored.toolingCost),
    };
    const breaks = (row.priceBreaks ?? []).map((column) =>
      audience === 'buyer'
        ? pick({ ...column, currency }, BUYER_PRICE_BREAK_KEYS)
        : {
            ...column,
            currency,
            margin:
              column.engineCost === null
                ? null
                : roundCents(column.amount - column.discount - column.engineCost),
          },
    );
    if (audience === 'buyer') return { ...pick(row, BUYER_ITEM_KEYS), priceBreaks: breaks };
    return {
      ...row,
      priceBreaks: breaks,
      margin: net === null || row.engineCost === null ? null : roundCents(net - row.engineCost),
    };
  };

/**
 * What GET /quotes/{id} makes of the quote's own row (its VAT totals); `present` adds what it reads
 * from other tables and the caller's `allowedActions`. Quote events deliver this (payloads.ts).
 */
export const presentQuoteRow = <Q extends Pick<QuoteRow, 'totalPrice' | 'vatRate'>>(quote: Q) => ({
  ...quote,
  ...vatTotals(quote.totalPrice, quote.vatRate),
});

/**
 * GET /quotes/{id}: the quote with its items (per audience), PDFs, order and the caller's
 * `allowedActions` (also the quote's event resource, for the admin asking).
 */
export async function presentQuote(db: Executor, actor: Actor, found: QuoteWithRefs) {
  const [items, pdfs, order, catalogue] = await Promise.all([
    liveItemsOf(db, found.id),
    pdfFilesOf(db, actor.organisationId, found.id),
    found.orderId ? findOrderRef(db, actor.organisationId, found.orderId) : null,
    loadCatalogueWithNames(db, found.organisationId),
  ]);
  const {
    organisationName: _organisation,
    deletedAt: _deleted,
    ...quote
  } = found as QuoteWithRefs & {
    deletedAt?: unknown;
  };
  const view = itemView(audienceOf(actor), found.currency, catalogue);
  return {
    ...presentQuoteRow(quote),
    priceBreakColumns: quoteColumns(items),
    allowedActions: allowedActions(found, actor),
    order,
    items: itemTree(items).map((root) => ({ ...view(root), children: root.children.map(view) })),
    pdfs: pdfs.map((file) => ({
      ...file,
      localisationId: file.label ?? '',
      url: `/api/quotes/${found.id}/localisation/${file.label}`,
    })),
  };
}

export { QUOTE_PAGE } from './list-repository.ts';

export type QuoteListQuery = PageQuery & {
  search?: string;
  status?: string;
  projectId?: string;
  companyId?: string;
  after?: string;
};

export type QuoteDetail = Awaited<ReturnType<ReturnType<typeof createQuoteService>['get']>>;

/**
 * Quotes: reads, lists, drafts and their items. Every state change (publish, accept, decline,
 * expire, revise, convert) fires a row of the lifecycle table (lifecycle.ts), whose effects run
 * here, in lifecycle.ts and in conversion.ts.
 */
export function createQuoteService({
  db,
  change,
  orders,
  seller,
  onPublished,
}: {
  db: Db;
  change: ChangeRunner;
  /** Reads the order a conversion made, as the actor sees it. */
  orders: Pick<OrderService, 'get'>;
  /** The organisation's default terms and the VAT of a customer (organisations module). */
  seller: Pick<OrganisationSettingsService, 'quoteDefaults' | 'vatFor'>;
  /** Told once a publish has committed (the module queues the rendering of its stored PDFs). */
  onPublished?: (actor: Actor, quoteId: string) => Promise<void>;
}) {
  const { fire, expireAllDue, expireIfPastValidity } = createQuoteLifecycle({
    db,
    change,
    effects: {
      applyFields: (step) => applyFields(step.tx, step.actor!, step.quote, step.input.fields ?? {}),
      copyIntoRevision: async (step) => {
        step.made.revisionId = await copyIntoRevision(
          step.tx,
          step.record,
          step.actor!,
          step.quote,
          step.now,
        );
        return undefined;
      },
      createOrder: createOrderOfQuote,
    } satisfies Record<string, EffectHandler>,
  });
  /**
   * Contacts only see quotes that were sent to them: drafts are internal, except the drafts a
   * contact asked for themselves ("order again", docs/portal.md), which they follow until published.
   */
  const hiddenFrom = (actor: Actor, row: { state: QuoteState; createdById: string | null }) =>
    actor.role === 'contact' && row.state === 'draft' && row.createdById !== actor.userId;

  /** The quote as its reader may see it, expired first if its validity has passed. */
  async function visible(actor: Actor, id: string): Promise<QuoteWithRefs> {
    let found = await findQuoteWithRefs(db, actor.organisationId, id);
    if (found && (await expireIfPastValidity(actor.organisationId, id, found))) {
      found = await findQuoteWithRefs(db, actor.organisationId, id);
    }
    if (!found) throw notFound('Quote');
    assertCompanyVisible(actor, found.companyId, 'Quote');
    if (hiddenFrom(actor, found)) throw notFound('Quote');
    return found;
  }

  const present = (actor: Actor, found: QuoteWithRefs) => presentQuote(db, actor, found);

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
    if (hiddenFrom(actor, row)) throw notFound('Quote');
    if (options.write) assertCompanyWritable(actor, row.companyId);
    return row;
  }

  /** Inserts built item rows, brings parents and totals up to date, records the events. */
  async function insertItems(
    tx: Tx,
    record: EventRecorder,
    quote: QuoteRow,
    rows: Awaited<ReturnType<typeof buildItems>>,
  ) {
    const inserted = await insertQuoteItems(tx, rows);
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

  /**
   * Fires a trigger of the lifecycle on the quote in one change: expired first if its validity
   * has passed (so the table sees its true state), then locked, then the row's guard and effects.
   * Returns what the effects made (a revision's id).
   */
  async function transition(
    actor: Actor,
    id: string,
    trigger: QuoteTrigger,
    options: { write: boolean; input?: TransitionInput; fields?: boolean },
  ) {
    await expireIfPastValidity(actor.organisationId, id);
    const made = await change(actor, async (tx, record) => {
      const quote = await lockForChange(tx, actor, id, options);
      // Edits go with a draft only, whatever else the request asks (409 quote_locked first).
      if (options.fields) assertQuoteEditable(quote);
      const step = await fire(tx, record, { actor, quote, trigger, input: options.input });
      return step.made;
    });
    if (trigger === 'publish' && onPublished) await onPublished(actor, id);
    return made;
  }

  /** The VAT columns of a quote for its customer (recomputed while it is a draft). */
  const vatColumns = (vat: VatDecision) => ({
    vatTreatment: vat.treatment,
    vatRate: vat.rate,
    vatExemptionReason: vat.exemptionReason,
  });

  /**
   * The `applyFields` effect: the edits of a draft (`PUT` fields), relations checked. The VAT is
   * decided again on every edit and at publication (the customer or the settings may have
   * changed); once published it is frozen with the quote.
   */
  async function applyFields(tx: Tx, actor: Actor, current: QuoteRow, input: UpdateQuoteInput) {
    if (!FIELD_KEYS.some((key) => input[key] !== undefined)) {
      const vat = vatColumns(
        await seller.vatFor(tx, actor.organisationId, {
          companyId: current.companyId,
          addressId: current.addressId,
        }),
      );
      if (!changedFields(current, { ...current, ...vat }).length) return undefined;
      return setQuote(tx, current.id, vat);
    }
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
    for (const key of TERMS_KEYS) if (input[key] !== undefined) Object.assign(changes, { [key]: input[key] });
    Object.assign(
      changes,
      vatColumns(await seller.vatFor(tx, actor.organisationId, { companyId, addressId: next.addressId })),
    );
    return setQuote(tx, current.id, { ...changes, updatedAt: new Date() });
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
    ...TERMS_KEYS,
  ] as const;

  return {
    get: read,

    /** 404 unless the quote exists, is live and visible to the actor. */
    async assertVisible(actor: Actor, id: string) {
      await visible(actor, id);
    },

    /** The quote with what its PDF shows (company, contact, address, organisation name). */
    visibleWithRefs: visible,

    /** Whether the actor may read a quote of its organisation (its company's; a contact no other's draft). */
    mayRead(actor: Actor, quote: { companyId: string; state: QuoteState; createdById: string | null }) {
      return isCompanyVisible(actor, quote.companyId) && !hiddenFrom(actor, quote);
    },

    async list(actor: Actor, query: QuoteListQuery) {
      const page = resolvePage(query, QUOTE_PAGE);
      if (await hasDue(db, actor.organisationId))
        await expireAllDue({ organisationId: actor.organisationId });
      let states: QuoteState[] | undefined;
      if (query.status) {
        const named = query.status
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean);
        const bad = named.filter((s) => !QUOTE_STATES.includes(s as QuoteState));
        if (!named.length || bad.length) {
          throw badRequest('status must be a comma-separated list of quote states', [
            { pointer: '/status', message: `must be among ${QUOTE_STATES.join(', ')}`, in: 'query' },
          ]);
        }
        states = named as QuoteState[];
      }
      const term = query.search?.trim() || undefined;
      // Ids first, then the page's rows with their company and project (platform/list-paging.ts).
      const wholeOrganisation =
        !isCompanyScoped(actor) &&
        actor.role !== 'contact' &&
        !query.companyId &&
        !query.projectId &&
        !query.status &&
        !term;
      const { rows, found } = await listQuoteSummaries(
        db,
        actor,
        { companyId: query.companyId, projectId: query.projectId, states, term },
        page,
        { wholeOrganisation, after: query.after },
      );
      const data = rows.map((row) => ({ ...row, allowedActions: allowedActions(row, actor) }));
      const { meta } = pageResult(data, found.total, page);
      return {
        data,
        meta: {
          ...meta,
          hasNextPage: found.hasNextPage,
          totalIsExact: found.totalIsExact,
          nextCursor: found.nextCursor,
        },
      };
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
              keyword: 'quoteLines',
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
        const { vat, ...defaults } = await seller.quoteDefaults(tx, org, {
          companyId,
          addressId: next.addressId,
        });
        const terms = { ...defaults, poNumber: null as string | null };
        for (const key of TERMS_KEYS)
          if (input[key] !== undefined) Object.assign(terms, { [key]: input[key] });
        const contactName = [contact?.firstName, contact?.lastName].filter(Boolean).join(' ');
        const created = await insertQuote(tx, {
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
          ...terms,
          ...vatColumns(vat),
          createdById: actor.userId,
        });
        const target: QuoteTarget = { ...created, companyId };
        const rows = await buildItems(
          tx,
          target,
          input,
          { briefIds: '/briefIds', items: '/items' },
          actor.userId,
        );
        if (!rows.length) {
          throw new AppError('quote_without_items', 'The request gives no item', {
            issues: [
              {
                pointer: '/items',
                message: 'at least one item is required',
                in: 'body',
                keyword: 'quoteLines',
              },
            ],
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
     * PUT /quotes/:id: edits a draft (`edit`), and/or moves the quote to another state (`state`:
     * the trigger of TRIGGER_OF_STATE, e.g. `published` fires `publish` with the edits). A quote
     * that is no longer a draft accepts only a state change (409 `quote_locked` otherwise).
     */
    async update(actor: Actor, id: string, input: UpdateQuoteInput) {
      const to = input.state;
      const fields = FIELD_KEYS.some((key) => input[key] !== undefined);
      if (input.rejectionReason !== undefined && to !== 'rejected') {
        throw badRequest('rejectionReason goes with state rejected', [
          { pointer: '/rejectionReason', message: 'is only accepted with state "rejected"', in: 'body' },
        ]);
      }
      const trigger = TRIGGER_OF_STATE[to ?? 'draft'];
      if (trigger === 'edit' && !fields) {
        // `{state: "draft"}` alone moves nothing: a draft stays one, and nothing goes back to draft.
        await expireIfPastValidity(actor.organisationId, id);
        await change(actor, async (tx) => {
          const current = await lockForChange(tx, actor, id, { write: true });
          if (current.state !== 'draft') throw invalidTransition(current.state, 'draft');
        });
        return read(actor, id);
      }
      await transition(actor, id, trigger, {
        write: true,
        fields,
        input: { fields: input, reason: input.rejectionReason },
      });
      return read(actor, id);
    },

    /**
     * PATCH /quotes/:id/quote-items/:itemId: one change of a line of a draft (quantity, unit price
     * override, discount, comment, optional, position, group label), its parents and the quote's
     * totals recomputed and every changed row evented in the same transaction.
     */
    async updateItem(actor: Actor, id: string, itemId: string, input: UpdateItemInput) {
      checkItemEdit(input);
      await change(actor, async (tx, record) => {
        const current = await lockForChange(tx, actor, id, { write: true });
        const item = await findItemRow(tx, actor.organisationId, itemId);
        if (!item || item.quoteId !== id) throw notFound('Quote item');
        assertQuoteEditable(current);
        const items = await liveItemsOf(tx, id);
        const changes: Partial<QuoteItemRow> = await lineMoneyAfter(tx, current, item, items, input);
        const breaks = await priceBreaksAfter(
          tx,
          current,
          { ...item, ...changes },
          input.priceBreaks?.map((column) => column.quantity),
          isGroupLine(item, items),
        );
        if (input.priceBreaks !== undefined || item.priceBreaks.length) changes.priceBreaks = breaks;
        if (input.name !== undefined && input.name.trim() !== item.name) {
          changes.name = input.name.trim();
          changes.customName = true;
        }
        if (input.comment !== undefined) changes.comment = input.comment;
        if (input.optional !== undefined) changes.optional = input.optional;
        if (input.groupLabel !== undefined) changes.groupLabel = input.groupLabel;
        let after = item;
        if (Object.keys(changes).length) {
          after = (await setQuoteItem(tx, item.id, { ...changes, updatedAt: new Date() }))!;
        }
        const moved = input.position === undefined ? [] : await moveItem(tx, items, after, input.position);
        after = moved.find((row) => row.id === item.id) ?? after;
        const columns = changedFields(item, after);
        if (columns.length) await recordItems(record, [after], 'UPDATE', columns);
        await recordItems(
          record,
          moved.filter((row) => row.id !== item.id),
          'UPDATE',
          ['position'],
        );
        const parents = await refreshParents(tx, id);
        await recordItems(record, parents, 'UPDATE', ['totalPrice', 'toolingCost', 'deliveryCost', 'valid']);
        const quoteAfter = await refreshQuoteTotals(tx, id);
        await record({
          on: QUOTE_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: quoteAfter,
          updatedColumns: changedFields(current, quoteAfter),
          updatedRelations: ['items'],
        });
      });
      return read(actor, id);
    },

    /** POST /quotes/:id/quote-items: adds items to a draft. */
    async addItems(actor: Actor, id: string, items: ItemInput[]) {
      await change(actor, async (tx, record) => {
        const current = await lockForChange(tx, actor, id, { write: true });
        assertQuoteEditable(current);
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
        assertQuoteEditable(current);
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
        const removed = await softDeleteQuoteItems(tx, [...ids]);
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
    async accept(actor: Actor, id: string) {
      await transition(actor, id, 'accept', { write: false });
      return read(actor, id);
    },

    /** The client declines: published -> rejected, with an optional reason. */
    async decline(actor: Actor, id: string, reason?: string) {
      await transition(actor, id, 'decline', { write: false, input: { reason } });
      return read(actor, id);
    },

    /**
     * POST /quotes/:id/revisions: a new draft copying a quote that is no longer a draft (its
     * fields and items, prices as they were), version = the lineage's highest + 1.
     */
    async revise(actor: Actor, id: string) {
      const made = await transition(actor, id, 'revise', { write: true });
      return read(actor, made.revisionId!);
    },

    /**
     * POST /quotes/:id/order: the order of a signed quote, once. Each quote item becomes an order
     * item (parents kept); an element gets the article of the company linked to it, or a new one
     * (code from the quote code); tooling and delivery become service lines under it. The quote
     * keeps the order's id.
     */
    convertToOrder: createQuoteConversion({ change, lockForChange, fire, read, orders }),

    /** The scheduled sweep: expires every quote whose validity has passed. */
    expireDue: expireAllDue,

    /**
     * A buyer's answer (accept / decline) fired through the lifecycle table inside the caller's
     * change (the acceptances module, which stores the evidence in the same transaction). The
     * quote row must be locked by that change.
     */
    fireAnswer: (
      tx: Tx,
      record: EventRecorder,
      options: {
        actor: Actor;
        quote: QuoteRow;
        trigger: 'accept' | 'decline';
        input: TransitionInput;
        now: Date;
      },
    ) => fire(tx, record, options),
  };

  /**
   * The `copyIntoRevision` effect: a new draft with the source's fields and items (prices as they
   * were), version = the lineage's highest + 1, `parentQuoteId` = the source; the source is unchanged.
   */
  async function copyIntoRevision(tx: Tx, record: EventRecorder, actor: Actor, source: QuoteRow, now: Date) {
    const rootId = source.rootQuoteId ?? source.id;
    // The lineage's original, locked: revisions of one lineage are numbered one at a time.
    const latestVersion = await lockLineageVersion(tx, rootId);
    const created = await insertQuote(tx, {
      id: uuidv7(),
      organisationId: source.organisationId,
      name: source.name,
      state: 'draft',
      version: (latestVersion ?? source.version) + 1,
      parentQuoteId: source.id,
      rootQuoteId: rootId,
      projectId: source.projectId,
      companyId: source.companyId,
      contactId: source.contactId,
      addressId: source.addressId,
      email: source.email,
      phoneNumber: source.phoneNumber,
      receiverName: source.receiverName,
      validUntil: source.validUntil && source.validUntil.getTime() > now.getTime() ? source.validUntil : null,
      currency: source.currency,
      ...Object.fromEntries(TERMS_KEYS.map((key) => [key, source[key]])),
      ...vatColumns(
        await seller.vatFor(tx, source.organisationId, {
          companyId: source.companyId,
          addressId: source.addressId,
        }),
      ),
      createdById: actor.userId,
      createdAt: now,
      updatedAt: now,
    });
    const items = await liveItemsOf(tx, source.id);
    const newIds = new Map(items.map((i) => [i.id, uuidv7()]));
    const copies = items
      .sort((a, b) => Number(Boolean(a.parentId)) - Number(Boolean(b.parentId)))
      .map(({ id: oldId, createdAt: _c, updatedAt: _u, deletedAt: _d, ...item }) => ({
        ...item,
        id: newIds.get(oldId)!,
        quoteId: created.id,
        parentId: item.parentId ? newIds.get(item.parentId)! : null,
        createdById: actor.userId,
        createdAt: now,
        updatedAt: now,
      }));
    await insertItemsCreate(tx, record, created, copies);
    return created.id;
  }

  /** Inserts the items of a new quote (its CREATE event first, then the items'). */
  async function insertItemsCreate(
    tx: Tx,
    record: EventRecorder,
    quote: QuoteRow,
    rows: Parameters<typeof insertItems>[3],
  ) {
    const inserted = await insertQuoteItems(tx, rows);
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
