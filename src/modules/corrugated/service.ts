/**
 * The rules of the corrugated resources: list/get/create/update for all, create-in-bulk and
 * soft delete for compositions and their prices. Every write and its event (entity named as HIPE
 * names it, e.g. `corrugated_material_compositions.updated`) commit in one transaction.
 */
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { changedFields, type EventRecorder } from '../../platform/events.ts';
import { entryFor } from '../catalogue/audience.ts';
import { baseCurrencyCode, findCurrencyByCode } from '../currencies/repository.ts';
import {
  briefUsingComposition,
  codeTaken,
  type Entry,
  findOne,
  insertEntry,
  listPage,
  liveOf,
  pricesOfComposition,
  softDelete,
  updateEntry,
  validPriceOf,
} from './repository.ts';
import { type Body, compositions, invalidReference, prices, type Resource } from './resources.ts';

export type ListQuery = Record<string, string | number | undefined>;

const PAGING = new Set(['page', 'limit', 'itemsPerPage', 'sortBy', 'sortOrder', 'sort']);

/** `filters[name]` / `order[name]` (bracketed, as PHP-style clients send them) or flat. */
function parseList(resource: Resource, query: ListQuery) {
  const filters: [string, string][] = [];
  let sortBy: string | undefined;
  let desc = false;
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined || PAGING.has(key)) continue;
    const value = String(raw);
    const bracket = /^(filters|order)\[(\w+)\]$/.exec(key);
    if (bracket?.[1] === 'order') {
      sortBy = bracket[2];
      desc = value.toLowerCase() === 'desc';
    } else filters.push([bracket ? bracket[2]! : key, value]);
  }
  if (typeof query.sort === 'string') {
    const [field, dir] = query.sort.split(',');
    sortBy = field;
    desc = dir?.toLowerCase() === 'desc';
  }
  if (query.sortBy !== undefined) sortBy = String(query.sortBy);
  if (query.sortOrder !== undefined) desc = String(query.sortOrder).toLowerCase() === 'desc';
  const bad = (pointer: string, message: string) => badRequest(message, [{ pointer, message, in: 'query' }]);
  const conditions = filters
    // n8n sends filters left empty as "": no filter.
    .filter(([, value]) => value !== '')
    .map(([name, value]) => {
      const filter = resource.filters[name];
      if (!filter)
        throw bad(
          `/${name}`,
          `is not a filter of ${resource.path} (${Object.keys(resource.filters).join(', ')})`,
        );
      return filter(value);
    });
  const field = sortBy ?? resource.defaultSort;
  const by = resource.sorts[field];
  if (!by) throw bad('/sortBy', `must be one of ${Object.keys(resource.sorts).join(', ')}`);
  const limit = Number(query.limit ?? query.itemsPerPage ?? 50);
  const page = Number(query.page ?? 1);
  return { conditions, by, desc, limit, page };
}

export function createCorrugatedService(ctx: Pick<AppContext, 'db' | 'change'>) {
  const { db } = ctx;

  async function whereOf(tx: Executor, resource: Resource, organisationId: string) {
    return liveOf(organisationId, resource.kind, await resource.scope?.(tx, organisationId));
  }

  async function show(tx: Executor, resource: Resource, organisationId: string, rows: Entry[]) {
    const lookups = (await resource.lookups?.(tx, organisationId)) ?? new Map();
    return rows.map((row) => resource.show(row, lookups));
  }

  async function one(tx: Executor, resource: Resource, actor: Actor, id: string, forUpdate = false) {
    const row = await findOne(tx, await whereOf(tx, resource, actor.organisationId), id, forUpdate);
    if (!row) throw notFound(resource.label);
    return row;
  }

  /** A price's currency: the base one or a live currency of the organisation (422 otherwise). */
  async function checkCurrency(tx: Executor, organisationId: string, code: unknown, pointer: string) {
    if (typeof code !== 'string') return;
    if (code.toUpperCase() === (await baseCurrencyCode(tx, organisationId))) return;
    if (!(await findCurrencyByCode(tx, organisationId, code))) throw invalidReference(pointer, 'a currency');
  }

  /**
   * The composition's price per m2 follows its price valid today in the base currency (latest
   * start first); without one it keeps the price it has.
   */
  async function syncPrice(tx: Executor, actor: Actor, compositionId: string, record: EventRecorder) {
    const base = await baseCurrencyCode(tx, actor.organisationId);
    const today = new Date().toISOString();
    const current = await validPriceOf(tx, actor.organisationId, prices.kind, compositionId, base, today);
    if (!current) return;
    const composition = await findOne(
      tx,
      liveOf(actor.organisationId, compositions.kind),
      compositionId,
      true,
    );
    const price = Number(current.price);
    if (!composition || composition.data.pricePerSquareMetre === price) return;
    const updated = await updateEntry(
      tx,
      compositionId,
      { data: { ...composition.data, pricePerSquareMetre: price } },
      new Date(),
    );
    await record({
      on: compositions.entity,
      type: 'UPDATE',
      entityId: compositionId,
      snapshot: (await show(tx, compositions, actor.organisationId, [updated]))[0],
      updatedColumns: ['pricePerSquareMetre'],
    });
  }

  async function createOne(
    tx: Executor,
    resource: Resource,
    actor: Actor,
    body: Body,
    record: EventRecorder,
    at: string,
  ) {
    if (resource === prices) await checkCurrency(tx, actor.organisationId, body.currency, `${at}/currency`);
    const values = await resource.build(tx, actor.organisationId, body, undefined, at);
    const code =
      values.code ??
      `${resource.kind.replace(/[a-z]/g, '').toUpperCase() || 'C'}-${crypto.randomUUID().slice(0, 8)}`;
    if (await codeTaken(tx, actor.organisationId, resource.kind, code)) {
      throw new AppError('code_taken', `A ${resource.label.toLowerCase()} with the reference ${code} exists`);
    }
    const row = await insertEntry(
      tx,
      actor.organisationId,
      resource.kind,
      { ...values, code },
      actor.userId,
      new Date(),
    );
    const [shown] = await show(tx, resource, actor.organisationId, [row]);
    await record({ on: resource.entity, type: 'CREATE', entityId: row.id, snapshot: shown });
    if (resource === prices) await syncPrice(tx, actor, row.data.compositionId as string, record);
    return shown!;
  }

  return {
    async list(actor: Actor, resource: Resource, query: ListQuery) {
      const { conditions, by, desc, limit, page } = parseList(resource, query);
      const { rows, total } = await listPage(
        db,
        await whereOf(db, resource, actor.organisationId),
        conditions,
        { by, desc },
        { limit, offset: (page - 1) * limit },
      );
      return {
        data: await show(
          db,
          resource,
          actor.organisationId,
          rows.map((row) => entryFor(actor, row)),
        ),
        meta: { page, limit, total, hasNextPage: page * limit < total },
      };
    },

    async get(actor: Actor, resource: Resource, id: string) {
      const row = await one(db, resource, actor, id);
      return (await show(db, resource, actor.organisationId, [entryFor(actor, row)]))[0]!;
    },

    create(actor: Actor, resource: Resource, body: Body) {
      return ctx.change(actor, (tx, record) => createOne(tx, resource, actor, body, record, ''));
    },

    /** All or none: the first refused item refuses the batch (pointers `/{index}/...`). */
    createBulk(actor: Actor, resource: Resource, items: Body[]) {
      return ctx.change(actor, async (tx, record) => {
        const created = [];
        for (const [i, item] of items.entries()) {
          created.push(await createOne(tx, resource, actor, item, record, `/${i}`));
        }
        return created;
      });
    },

    update(actor: Actor, resource: Resource, id: string, body: Body) {
      return ctx.change(actor, async (tx, record) => {
        const current = await one(tx, resource, actor, id, true);
        if (resource === prices) await checkCurrency(tx, actor.organisationId, body.currency, '/currency');
        const values = await resource.build(tx, actor.organisationId, body, current, '');
        if (values.code !== undefined && values.code !== current.code) {
          if (await codeTaken(tx, actor.organisationId, resource.kind, values.code, id))
            throw new AppError(
              'code_taken',
              `A ${resource.label.toLowerCase()} with the reference ${values.code} exists`,
            );
        }
        const next = {
          code: values.code ?? current.code,
          name: values.name,
          enabled: values.enabled,
          data: values.data,
        };
        const columns = changedFields(
          { code: current.code, name: current.name, enabled: current.enabled, ...current.data },
          { code: next.code, name: next.name, enabled: next.enabled, ...next.data },
        );
        if (columns.length === 0) return (await show(tx, resource, actor.organisationId, [current]))[0]!;
        const row = await updateEntry(tx, id, next, new Date());
        const [shown] = await show(tx, resource, actor.organisationId, [row]);
        await record({
          on: resource.entity,
          type: 'UPDATE',
          entityId: id,
          snapshot: shown,
          updatedColumns: columns,
        });
        if (resource === prices) {
          await syncPrice(tx, actor, row.data.compositionId as string, record);
          if (current.data.compositionId !== row.data.compositionId)
            await syncPrice(tx, actor, current.data.compositionId as string, record);
        }
        return shown!;
      });
    },

    remove(actor: Actor, resource: Resource, id: string) {
      return ctx.change(actor, async (tx, record) => {
        const current = await one(tx, resource, actor, id, true);
        const at = new Date();
        if (resource === compositions) {
          // Live briefs priced with it keep their prices, but could not be priced again.
          const used = await briefUsingComposition(tx, id);
          if (used) {
            throw new AppError(
              'reference_conflict',
              `Brief ${used.briefId} is made of this composition: change its elements first`,
            );
          }
          // Its prices go with it.
          const own = await pricesOfComposition(tx, actor.organisationId, prices.kind, id);
          for (const price of own) {
            const row = await softDelete(tx, price.id, at);
            if (row) {
              await record({
                on: prices.entity,
                type: 'DELETE',
                entityId: row.id,
                snapshot: (await show(tx, prices, actor.organisationId, [row]))[0],
              });
            }
          }
        }
        const row = await softDelete(tx, id, at);
        if (!row) throw notFound(resource.label);
        await record({
          on: resource.entity,
          type: 'DELETE',
          entityId: id,
          snapshot: (await show(tx, resource, actor.organisationId, [row]))[0],
        });
        if (resource === prices) await syncPrice(tx, actor, current.data.compositionId as string, record);
        return { id, deleted: true as const };
      });
    },
  };
}
