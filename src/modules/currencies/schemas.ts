import { Type } from '@sinclair/typebox';
import { currencies } from '../../db/schema/organisation-data.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { DateTime, Nullable, Uuid } from '../../platform/schemas.ts';

const Code = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. EUR' });
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const CurrencySymbol = Type.String({ minLength: 1, maxLength: 10, pattern: '\\S', description: 'e.g. €' });
const Rate = Type.Number({
  minimum: 0.00000001,
  maximum: 9_999_999_999,
  description:
    'Units of this currency per one unit of the organisation’s base currency (> 0; 1 for the base)',
});

export const CurrencySchema = Type.Object(
  {
    id: Uuid,
    code: Type.String(),
    name: Nullable(Type.String()),
    symbol: Type.String(),
    rate: Type.Number(),
    isBase: Type.Boolean({ description: 'The organisation’s base currency (rate 1, cannot be deleted)' }),
    createdById: Nullable(Uuid),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Currency' },
);

export const CreateCurrencyBody = Type.Object(
  { code: Code, name: Type.Optional(Nullable(Name)), symbol: CurrencySymbol, rate: Type.Optional(Rate) },
  { additionalProperties: false },
);

export const UpdateCurrencyBody = Type.Object(
  {
    code: Type.Optional(Code),
    name: Type.Optional(Nullable(Name)),
    symbol: Type.Optional(CurrencySymbol),
    rate: Type.Optional(Rate),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const CURRENCY_PAGE = {
  defaultLimit: 100,
  maxLimit: 500,
  sortFields: {
    code: currencies.code,
    name: currencies.name,
    createdAt: currencies.createdAt,
    updatedAt: currencies.updatedAt,
  },
  tieBreaker: currencies.id,
  defaultSort: { field: 'code', direction: 'ASC' as const },
};

export const CurrencyListQuery = pageQuerySchema(CURRENCY_PAGE, {
  code: Type.Optional(Code),
});
