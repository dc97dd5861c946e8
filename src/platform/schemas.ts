import { type TSchema, Type } from '@sinclair/typebox';

export const Uuid = Type.String({ format: 'uuid', description: 'UUID' });
/** A timestamp in responses: services hand Date objects, serialised as ISO 8601 UTC strings. */
export const DateTime = Type.Unsafe<Date>({
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
export const IdParams = Type.Object({ id: Uuid });
export const CustomFieldValues = Type.Record(
  Type.String({ minLength: 1, maxLength: 100 }),
  Type.Union([
    Type.Boolean(),
    Type.String({ maxLength: 10_000 }),
    Type.Number(),
    Type.Array(Type.String()),
    Type.Null(),
  ]),
  { description: 'Values keyed by custom field key; checked against the field definitions' },
);

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable machine-readable error code' }),
    instance: Type.Optional(Type.String()),
    requestId: Type.Optional(Type.String()),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          pointer: Type.String({ description: 'JSON pointer to the offending value' }),
          message: Type.String(),
          in: Type.Optional(Type.String()),
        }),
      ),
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

export const DeletedResponse = Type.Object({ id: Uuid, deleted: Type.Literal(true) });
