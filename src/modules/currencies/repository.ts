import { Type } from '@sinclair/typebox';
import { and, count, eq, ilike, isNull, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { currencies } from '../../db/schema/organisation-data.ts';
import { organisations } from '../../db/schema/platform.ts';
import { entity } from '../../platform/events.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import { CurrencySchema } from './schemas.ts';

export const CURRENCY_ENTITY = entity('CURRENCY', 'currencies', 'currencies', {
  // GET /currencies/{id} without `isBase` (read from the organisation's base currency).
  schema: Type.Omit(CurrencySchema, ['isBase'], { $id: 'CurrencyEventEntity' }),
});

/** The columns of a currency that the API shows; `isBase` compares with the organisation's base. */
export const currencyColumns = {
  id: currencies.id,
  code: currencies.code,
  name: currencies.name,
  symbol: currencies.symbol,
  rate: currencies.rate,
  isBase: sql<boolean>`(${currencies.code} = ${organisations.baseCurrency})`.as('is_base'),
  countryCode: currencies.countryCode,
  externalId: currencies.externalId,
  enabled: currencies.enabled,
  isDefault: currencies.isDefault,
  createdById: currencies.createdById,
  createdAt: currencies.createdAt,
  updatedAt: currencies.updatedAt,
};

export type CurrencyRow = {
  id: string;
  code: string;
  name: string | null;
  symbol: string;
  /** Units of this currency per one unit of the organisation's base currency. */
  rate: number;
  isBase: boolean;
  countryCode: string | null;
  externalId: string | null;
  enabled: boolean;
  isDefault: boolean;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export const liveCurrencies = (organisationId: string) =>
  and(eq(currencies.organisationId, organisationId), isNull(currencies.deletedAt));

/** Select currencies with the organisation joined (for `isBase`). */
export const selectCurrencies = (db: Executor) =>
  db
    .select(currencyColumns)
    .from(currencies)
    .innerJoin(organisations, eq(organisations.id, currencies.organisationId));

/**
 * A live (not deleted) currency of the organisation, or undefined: what orders, articles and
 * quotes check a `currencyId` with before storing it.
 */
export async function findLiveCurrency(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<CurrencyRow | undefined> {
  const [row] = await selectCurrencies(db)
    .where(and(eq(currencies.id, id), liveCurrencies(organisationId)))
    .limit(1);
  return row as CurrencyRow | undefined;
}

/** A live currency of the organisation by ISO code (e.g. "EUR"), or undefined. */
export async function findCurrencyByCode(
  db: Executor,
  organisationId: string,
  code: string,
): Promise<CurrencyRow | undefined> {
  const [row] = await selectCurrencies(db)
    .where(and(eq(currencies.code, code.toUpperCase()), liveCurrencies(organisationId)))
    .limit(1);
  return row as CurrencyRow | undefined;
}

/** The organisation's base currency code (EUR unless configured otherwise). */
export async function baseCurrencyCode(db: Executor, organisationId: string): Promise<string> {
  const [row] = await db
    .select({ code: organisations.baseCurrency })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .limit(1);
  return row?.code ?? 'EUR';
}

/** The live currency row of the organisation's base currency, or undefined. */
export async function findBaseCurrency(db: Executor, organisationId: string) {
  return findCurrencyByCode(db, organisationId, await baseCurrencyCode(db, organisationId));
}

/**
 * A page of the organisation's live currencies with the total: of one code when given, and whose
 * code, name or symbol matches the ILIKE pattern when given.
 */
export async function listLiveCurrencies(
  db: Executor,
  organisationId: string,
  filter: { code?: string; pattern?: string },
  page: Pick<PageRequest, 'orderBy' | 'limit' | 'offset'>,
) {
  const where = and(
    liveCurrencies(organisationId),
    filter.code ? eq(currencies.code, filter.code) : undefined,
    filter.pattern
      ? or(
          ilike(currencies.code, filter.pattern),
          ilike(currencies.name, filter.pattern),
          ilike(currencies.symbol, filter.pattern),
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    selectCurrencies(db)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(currencies).where(where),
  ]);
  return { rows: rows as CurrencyRow[], total: total?.count ?? 0 };
}

export async function insertCurrency(db: Executor, values: typeof currencies.$inferInsert) {
  const [inserted] = await db.insert(currencies).values(values).returning({ id: currencies.id });
  return inserted!;
}

/** Clears the organisation's default currency (but the one excepted). */
export async function clearDefaultCurrency(db: Executor, organisationId: string, exceptId?: string) {
  await db
    .update(currencies)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(
      and(
        liveCurrencies(organisationId),
        eq(currencies.isDefault, true),
        exceptId ? ne(currencies.id, exceptId) : undefined,
      ),
    );
}

/** Updates a live currency of the organisation (nothing when it is not one). */
export async function updateLiveCurrency(
  db: Executor,
  organisationId: string,
  id: string,
  values: Partial<typeof currencies.$inferInsert>,
) {
  await db
    .update(currencies)
    .set(values)
    .where(and(eq(currencies.id, id), liveCurrencies(organisationId)));
}
