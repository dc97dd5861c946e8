import {
  type Static,
  type TArray,
  type TBoolean,
  type TNull,
  type TNumber,
  type TSchema,
  type TString,
  type TUnion,
  Type,
} from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from './error-codes.ts';
import { MONEY_MAX, QUANTITY_MAX } from './input-safety.ts';

/** An amount of money in a request: 0 to MONEY_MAX (10^12), finite (platform/input-safety.ts). */
export const Money = (options: { description?: string; minimum?: number } = {}) =>
  Type.Number({ minimum: 0, maximum: MONEY_MAX, ...options });
/** A quantity in a request: above 0 (or from `minimum`) up to QUANTITY_MAX (10^9), finite. */
export const Quantity = (options: { description?: string; minimum?: number } = {}) =>
  Type.Number({
    ...(options.minimum === undefined ? { exclusiveMinimum: 0 } : {}),
    maximum: QUANTITY_MAX,
    ...options,
  });

export const Uuid = Type.String({ format: 'uuid', description: 'UUID' });
/**
 * A timestamp in responses: services hand Date objects (or ISO strings SQL already rendered, as
 * the nested items of an order), serialised as ISO 8601 UTC strings.
 */
export const DateTime = Type.Unsafe<Date | string>({
  type: 'string',
  format: 'date-time',
  description: 'ISO 8601 timestamp',
});
/** A timestamp in requests: validated ISO 8601 string. */
export const DateTimeInput = Type.String({ format: 'date-time', description: 'ISO 8601 timestamp' });
/** A string enum with a precise TypeScript type and an `enum` in the JSON schema. */
export const StringEnum = <T extends string>(
  values: readonly T[],
  options: { description?: string; default?: T } = {},
) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A nullable request value, written `type: [T, 'null']` when the schema has a single type rather
 * than an anyOf: with the app's `coerceTypes`, an anyOf of string and null coerces a sent null to
 * "" on its first branch, while ajv leaves a value alone when one of the listed types matches.
 * Other schemas get an anyOf with null first, for the same reason. Typed as the union it stands for.
 */
export function NullableInput<T extends TSchema>(schema: T): TUnion<[T, TNull]> {
  const { type } = schema as { type?: unknown };
  if (typeof type !== 'string') return Type.Union([Type.Null(), schema]) as unknown as TUnion<[T, TNull]>;
  return { ...schema, type: [type, 'null'] } as unknown as TUnion<[T, TNull]>;
}

/**
 * A nullable value in a response, as a JSON Schema type list (`type: ['string', 'null']`) rather
 * than an anyOf where the schema allows it: fast-json-stringify serializes a type list with a
 * typeof check, while an anyOf makes it run a schema validator on every value of every row.
 */
export const NullableOutput = <T extends TSchema>(schema: T) => {
  const { type } = schema as { type?: unknown };
  if (typeof type !== 'string') return Type.Union([schema, Type.Null()]);
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
};

/** Custom field values as the route hands them over (checked against the definitions by the service). */
export type WithCustomFields<T> = Omit<T, 'customFields'> & { customFields?: Record<string, unknown> };
export const IdParams = Type.Object({ id: Uuid });
/** One custom field value: boolean, string, number, string[] (multi-select), or null to remove it. */
export type CustomFieldValue = boolean | string | number | string[] | null;
export const CustomFieldValues = Type.Record(
  Type.String({ minLength: 1, maxLength: 100 }),
  // Deliberately no `type` union here: with the app's type coercion (coerceTypes) an anyOf of
  // types rewrites values on its first branch (null -> false, 1 -> true, "true" -> true).
  // validateCustomFields (modules/custom-fields/validate.ts) checks each value against its
  // field definition's type instead. Typed as the union it stands for, so that request types
  // infer CustomFieldValue.
  Type.Unsafe<CustomFieldValue>({
    not: { type: 'object' },
    description: 'boolean, string, number, string[] (multi-select), or null to remove the value',
  }) as unknown as TUnion<[TBoolean, TString, TNumber, TArray<TString>, TNull]>,
  { description: 'Values keyed by custom field key; checked against the field definitions' },
);

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    // The registry's codes as an enum, so a client can switch over them (docs/errors.md).
    code: StringEnum(Object.keys(ERROR_CODES) as ErrorCode[], {
      description: 'Stable machine-readable error code (docs/errors.md)',
    }),
    instance: Type.Optional(Type.String()),
    requestId: Type.Optional(Type.String()),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          pointer: Type.String({ description: 'JSON pointer to the offending value' }),
          message: Type.String({ description: 'The English text of the issue, for people' }),
          in: Type.Optional(Type.String()),
          keyword: Type.Optional(
            Type.String({
              description:
                'The rule the value broke (schema issues): the JSON Schema keyword, such as minLength, maximum, type, format, pattern, required, enum',
            }),
          ),
          params: Type.Optional(
            Type.Object(
              {},
              {
                additionalProperties: true,
                description:
                  "The rule's parameters as JSON Schema names them: limit (minLength, maximum...), type, format, pattern, allowedValues",
              },
            ),
          ),
        }),
        { description: 'The issues found, at most 20 (see errorsTotal)' },
      ),
    ),
    errorsTotal: Type.Optional(
      Type.Integer({
        description: 'How many issues were found, when there were more than the 20 listed in errors',
      }),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

const ProblemRef = Type.Ref('Problem');

/** Error responses every authenticated route can give, plus any extra statuses it names. */
export function problemResponses(...extra: number[]) {
  const statuses = new Set([400, 401, 403, 404, ...extra]);
  return Object.fromEntries([...statuses].map((status) => [status, ProblemRef]));
}

export const PageMeta = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  hasNextPage: Type.Boolean(),
});

export const Paginated = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), meta: PageMeta });

/**
 * A page of a list whose total is exact for the whole organisation and counted up to
 * `LIST_COUNT_CAP` (platform/list-paging.ts) otherwise. `totalIsExact` is always sent, or (for an
 * envelope clients already compare whole, the companies') only when false.
 */
export const CountedPage = <T extends TSchema>(
  item: T,
  options: { cap: number; alwaysSaysExact: boolean },
) => {
  const cap = options.cap.toLocaleString('en');
  const base = {
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer({
      description: `Matching rows: exact for the unfiltered list and up to ${cap} matches, else a lower bound`,
    }),
    hasNextPage: Type.Boolean({ description: 'Always exact' }),
    nextCursor: Type.Optional(
      Nullable(
        Type.String({
          description:
            'Keyset cursor: pass it as `after` for the next page (constant cost at any depth); null on the last page',
        }),
      ),
    ),
  };
  const totalIsExact = Type.Boolean({
    description: options.alwaysSaysExact
      ? `False when more than ${cap} rows match a filtered list: total is then a lower bound`
      : `Sent (false) only when more than ${cap} rows match a filtered list: total is then a lower bound`,
  });
  return Type.Object({
    data: Type.Array(item),
    meta: options.alwaysSaysExact
      ? Type.Object({ ...base, totalIsExact })
      : Type.Object({ ...base, totalIsExact: Type.Optional(totalIsExact) }),
  });
};

export const DeletedResponse = Type.Object({ id: Uuid, deleted: Type.Literal(true) });
