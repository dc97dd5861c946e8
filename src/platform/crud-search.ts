import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { CountedPage, Paginated } from './schemas.ts';

// The request side of the @nestjsx/crud grammar (parsed by crud-query.ts): the query-string
// schema, the fold of indexed lists, and the answer shape, shared by the searches of companies,
// contacts, users and addresses.

/** Query string of a search in the @nestjsx/crud grammar (`s`, `filter`, `or`, `sort`, `limit`, ...). */
export function crudQuerySchema(options: {
  fields: readonly string[];
  defaultLimit: number;
  maxLimit: number;
  /** Adds `after`, a keyset cursor continuing the default order. */
  keyset?: boolean;
}) {
  const fields = options.fields.join(', ');
  return Type.Object(
    {
      s: Type.Optional(
        Type.String({
          maxLength: 4000,
          description:
            'URL-encoded JSON search: `{"field": value}`, `{"field": {"$op": value}}`, `{"$and": [...]}`, ' +
            '`{"$or": [...]}`. Operators: $eq $ne $gt $lt $gte $lte $starts $ends $cont $excl $in $notin ' +
            '$isnull $notnull $between and the case-insensitive $eqL $neL $startsL $endsL $contL $exclL $inL ' +
            `$notinL. Fields: ${fields}. When given, \`filter\` and \`or\` are ignored.`,
        }),
      ),
      filter: Type.Optional(
        Type.Array(Type.String({ maxLength: 1000 }), {
          maxItems: 20,
          description: '`field||$op||value` conditions, ANDed (lists: comma-separated)',
        }),
      ),
      or: Type.Optional(
        Type.Array(Type.String({ maxLength: 1000 }), {
          maxItems: 20,
          description: '`field||$op||value` conditions, ORed (and ORed with the `filter` group)',
        }),
      ),
      sort: Type.Optional(
        Type.Array(Type.String({ maxLength: 100 }), { maxItems: 5, description: '`field,ASC|DESC`' }),
      ),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: options.maxLimit,
          description: `Number of rows (default ${options.defaultLimit}, maximum ${options.maxLimit})`,
        }),
      ),
      offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Rows to skip' })),
      page: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 1_000_000,
          description: 'Page number: when given the answer is the `{data, meta}` page envelope',
        }),
      ),
      ...(options.keyset
        ? {
            after: Type.Optional(
              Type.String({
                format: 'uuid',
                description:
                  'Keyset pagination in the default order: the id of the last row of the previous page (with ' +
                  '`page`, the envelope then carries `meta.nextCursor`); constant cost at any depth; `offset` ' +
                  'and `page` are then ignored for positioning',
              }),
            ),
          }
        : {}),
    },
    { additionalProperties: false },
  );
}

export type CrudQueryString = {
  s?: string;
  filter?: string[];
  or?: string[];
  sort?: string[];
  limit?: number;
  offset?: number;
  page?: number;
  after?: string;
};

/**
 * The query as the @nestjsx/crud parser expects it: it reads numbers only from strings, and the
 * schema validation has already coerced them to numbers.
 */
export function crudParams(query: CrudQueryString): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]),
  );
}

const INDEXED_PARAM = /^(filter|or|sort)\[(\d*)\]$/;

/**
 * preValidation hook of the crud-grammar routes: `RequestQueryBuilder` writes lists as
 * `filter[0]=...&filter[1]=...` (the qs convention of the original NestJS servers), which the
 * plain query-string parser keeps as separate keys. They are folded into `filter: [...]` in index
 * order before the query is validated.
 */
export async function foldIndexedCrudParams(request: FastifyRequest) {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query || typeof query !== 'object') return;
  const folded = new Map<string, { index: number; values: unknown[] }[]>();
  for (const key of Object.keys(query)) {
    const match = INDEXED_PARAM.exec(key);
    if (!match) continue;
    const entries = folded.get(match[1]!) ?? [];
    entries.push({
      index: match[2] === '' ? Number.MAX_SAFE_INTEGER : Number(match[2]),
      values: [query[key]].flat(),
    });
    folded.set(match[1]!, entries);
    delete query[key];
  }
  for (const [name, entries] of folded) {
    entries.sort((a, b) => a.index - b.index);
    const existing = query[name] === undefined ? [] : [query[name]].flat();
    query[name] = [...existing, ...entries.flatMap((e) => e.values)];
  }
}

/** A search answer: a plain array, or the page envelope when `page` was given. */
export const SearchResult = <T extends TSchema>(item: T, options: { countCap?: number } = {}) =>
  Type.Union(
    [
      Type.Array(item),
      options.countCap === undefined
        ? Paginated(item)
        : CountedPage(item, { cap: options.countCap, alwaysSaysExact: false }),
    ],
    { description: 'An array of matches, or `{data, meta}` when `page` is given' },
  );
