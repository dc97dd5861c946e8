import type { Static } from '@sinclair/typebox';
import type { AppContext, OrganisationSeeder } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { changedFields } from '../../platform/events.ts';
import { likeEscape } from '../../platform/filters.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import {
  baseCurrencyCode,
  CURRENCY_ENTITY,
  clearDefaultCurrency,
  findCurrencyByCode,
  findLiveCurrency,
  insertCurrency,
  listLiveCurrencies,
  updateLiveCurrency,
} from './repository.ts';
import { type CreateCurrencyBody, CURRENCY_PAGE, type UpdateCurrencyBody } from './schemas.ts';

/** Names and symbols of the base currencies an organisation may start with. */
const KNOWN: Record<string, { name: string; symbol: string }> = {
  EUR: { name: 'Euro', symbol: '€' },
  USD: { name: 'US Dollar', symbol: '$' },
  GBP: { name: 'Pound Sterling', symbol: '£' },
  CHF: { name: 'Swiss Franc', symbol: 'CHF' },
};

/** Seeds the organisation's base currency (EUR by default) with rate 1. */
export const seedCurrencies: OrganisationSeeder = async (tx, organisation, record) => {
  const code = await baseCurrencyCode(tx, organisation.id);
  const known = KNOWN[code] ?? { name: code, symbol: code };
  const inserted = await insertCurrency(tx, {
    organisationId: organisation.id,
    code,
    name: known.name,
    symbol: known.symbol,
    rate: 1,
    createdById: organisation.adminUserId,
  });
  const row = await findLiveCurrency(tx, organisation.id, inserted.id);
  await record({ on: CURRENCY_ENTITY, type: 'CREATE', entityId: row!.id, snapshot: row });
};

async function assertCodeFree(tx: Tx, organisationId: string, code: string, selfId?: string) {
  const existing = await findCurrencyByCode(tx, organisationId, code);
  if (existing && existing.id !== selfId) {
    throw new AppError('duplicate_currency', `The currency ${code} already exists`);
  }
}

const baseRateRule = (code: string) =>
  new AppError('base_currency', `${code} is the organisation's base currency: its rate is always 1`);

export function createCurrencyService(ctx: Pick<AppContext, 'db' | 'change'>) {
  return {
    async list(actor: Actor, query: PageQuery & { code?: string; search?: string }) {
      const page = resolvePage(query, CURRENCY_PAGE);
      const term = query.search?.trim();
      const pattern = term ? `%${likeEscape(term)}%` : undefined;
      const { rows, total } = await listLiveCurrencies(
        ctx.db,
        actor.organisationId,
        { code: query.code, pattern },
        page,
      );
      return pageResult(rows, total, page);
    },

    async get(actor: Actor, id: string) {
      const row = await findLiveCurrency(ctx.db, actor.organisationId, id);
      if (!row) throw notFound('Currency');
      return row;
    },

    create: (actor: Actor, input: Static<typeof CreateCurrencyBody>) =>
      ctx.change(actor, async (tx, record) => {
        await assertCodeFree(tx, actor.organisationId, input.code);
        if (input.isDefault) await clearDefaultCurrency(tx, actor.organisationId);
        const rate = input.rate ?? 1;
        if (input.code === (await baseCurrencyCode(tx, actor.organisationId)) && rate !== 1) {
          throw baseRateRule(input.code);
        }
        const inserted = await insertCurrency(tx, {
          organisationId: actor.organisationId,
          code: input.code,
          name: input.name?.trim() ?? null,
          symbol: input.symbol.trim(),
          rate,
          countryCode: input.countryCode ?? null,
          externalId: input.externalId ?? null,
          enabled: input.enabled ?? true,
          isDefault: input.isDefault ?? false,
          createdById: actor.userId,
        });
        const row = (await findLiveCurrency(tx, actor.organisationId, inserted.id))!;
        await record({ on: CURRENCY_ENTITY, type: 'CREATE', entityId: row.id, snapshot: row });
        return row;
      }),

    update: (actor: Actor, id: string, input: Static<typeof UpdateCurrencyBody>) =>
      ctx.change(actor, async (tx, record) => {
        const before = await findLiveCurrency(tx, actor.organisationId, id);
        if (!before) throw notFound('Currency');
        const code = input.code ?? before.code;
        if (before.isBase && code !== before.code) {
          throw new AppError(
            'base_currency',
            `${before.code} is the organisation's base currency: its code cannot change`,
          );
        }
        if (code !== before.code) await assertCodeFree(tx, actor.organisationId, code, id);
        const isBase = before.isBase || code === (await baseCurrencyCode(tx, actor.organisationId));
        if (isBase && (input.rate ?? before.rate) !== 1) throw baseRateRule(code);
        if (input.isDefault && !before.isDefault) await clearDefaultCurrency(tx, actor.organisationId, id);
        await updateLiveCurrency(tx, actor.organisationId, id, {
          code,
          ...(input.name !== undefined ? { name: input.name?.trim() ?? null } : {}),
          ...(input.symbol !== undefined ? { symbol: input.symbol.trim() } : {}),
          ...(input.rate !== undefined ? { rate: input.rate } : {}),
          ...(input.countryCode !== undefined ? { countryCode: input.countryCode } : {}),
          ...(input.externalId !== undefined ? { externalId: input.externalId } : {}),
          ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
          ...(input.isDefault !== undefined ? { isDefault: input.isDefault } : {}),
          updatedAt: new Date(),
        });
        const row = (await findLiveCurrency(tx, actor.organisationId, id))!;
        const updatedColumns = changedFields(before, row);
        if (updatedColumns.length) {
          await record({ on: CURRENCY_ENTITY, type: 'UPDATE', entityId: id, snapshot: row, updatedColumns });
        }
        return row;
      }),

    /**
     * Soft delete; the base currency cannot be deleted (409). Records that already reference the
     * currency keep their `currencyId`; it is no longer accepted for new ones (findLiveCurrency).
     */
    remove: (actor: Actor, id: string) =>
      ctx.change(actor, async (tx, record) => {
        const before = await findLiveCurrency(tx, actor.organisationId, id);
        if (!before) throw notFound('Currency');
        if (before.isBase) {
          throw new AppError(
            'base_currency',
            `${before.code} is the organisation's base currency and cannot be deleted`,
          );
        }
        await updateLiveCurrency(tx, actor.organisationId, id, {
          deletedAt: new Date(),
          updatedAt: new Date(),
        });
        await record({ on: CURRENCY_ENTITY, type: 'DELETE', entityId: id, snapshot: before });
        return { id, deleted: true as const };
      }),
  };
}
