import { Type } from '@sinclair/typebox';
import { currencies } from '../../db/schema/organisation-data.ts';
import {
  type Alias,
  registerOutputAliases,
  withInputAliases,
  withOutputAliases,
} from '../../platform/hipe.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { DateTime, Nullable, NullableInput, Uuid } from '../../platform/schemas.ts';

const Code = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. EUR' });
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const CurrencySymbol = Type.String({ minLength: 1, maxLength: 10, pattern: '\\S', description: 'e.g. €' });
const Rate = Type.Number({
  minimum: 0.00000001,
  maximum: 9_999_999_999,
  description:
    'Units of this currency per one unit of the organisation’s base currency (> 0; 1 for the base)',
});

const CountryCode = Type.String({
  pattern: '^[A-Za-z]{2}$',
  description: 'ISO 3166-1 alpha-2 code of the country or zone using it, e.g. `eu` or `FR` (kept as sent)',
});
const ExternalId = Type.String({ minLength: 1, maxLength: 200, description: 'Identifier in another system' });
const Enabled = Type.Boolean({ description: 'Whether the currency may be used (default true)' });
const IsDefault = Type.Boolean({
  description:
    'The currency proposed by default for new records; at most one per organisation (setting it clears the ' +
    'previous one). It is not the base currency of the rates (`isBase`).',
});

/** HIPE's names of currency properties. */
export const CURRENCY_ALIASES: readonly Alias[] = registerOutputAliases([
  { alias: 'enable', of: 'enabled' },
  { alias: 'default', of: 'isDefault' },
]);

export const CurrencySchema = withOutputAliases(
  Type.Object(
    {
      id: Uuid,
      code: Type.String(),
      name: Nullable(Type.String()),
      symbol: Type.String(),
      rate: Type.Number(),
      isBase: Type.Boolean({ description: 'The organisation’s base currency (rate 1, cannot be deleted)' }),
      countryCode: Nullable(Type.String()),
      externalId: Nullable(Type.String()),
      enabled: Type.Boolean(),
      isDefault: IsDefault,
      createdById: Nullable(Uuid),
      createdAt: DateTime,
      updatedAt: DateTime,
    },
    { $id: 'Currency' },
  ),
  CURRENCY_ALIASES,
);

export const CreateCurrencyBody = withInputAliases(
  Type.Object(
    {
      code: Code,
      name: Type.Optional(Nullable(Name)),
      symbol: CurrencySymbol,
      rate: Type.Optional(Rate),
      countryCode: Type.Optional(NullableInput(CountryCode)),
      externalId: Type.Optional(NullableInput(ExternalId)),
      enabled: Type.Optional(Enabled),
      isDefault: Type.Optional(IsDefault),
    },
    { additionalProperties: false },
  ),
  CURRENCY_ALIASES,
);

export const UpdateCurrencyBody = withInputAliases(
  Type.Object(
    {
      code: Type.Optional(Code),
      name: Type.Optional(Nullable(Name)),
      symbol: Type.Optional(CurrencySymbol),
      rate: Type.Optional(Rate),
      countryCode: Type.Optional(NullableInput(CountryCode)),
      externalId: Type.Optional(NullableInput(ExternalId)),
      enabled: Type.Optional(Enabled),
      isDefault: Type.Optional(IsDefault),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  CURRENCY_ALIASES,
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
  search: Type.Optional(
    Type.String({ maxLength: 200, description: 'Case-insensitive "contains" on code, name or symbol' }),
  ),
});
