import { type TSchema, Type } from '@sinclair/typebox';
import { type AnyColumn, asc, desc, type SQL } from 'drizzle-orm';
import { badRequest } from './errors.ts';

export type SortDirection = 'ASC' | 'DESC';
export type SortableFields = Record<string, AnyColumn | SQL>;

export type PageOptions = {
  defaultLimit: number;
  maxLimit: number;
  sortFields: SortableFields;
  /** Column used to make every order total (ties broken by it); usually the primary key. */
  tieBreaker: AnyColumn;
  defaultSort: { field: string; direction: SortDirection };
};

/** Query-string schema of a paginated listing, with the resource's own limit default and maximum. */
export function pageQuerySchema<P extends Record<string, TSchema>>(
  options: Pick<PageOptions, 'defaultLimit' | 'maxLimit' | 'sortFields'>,
  extra: P = {} as P,
) {
  const fields = Object.keys(options.sortFields).join(', ');
  return Type.Object(
    {
      page: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1' }),
      ),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: options.maxLimit,
          default: options.defaultLimit,
          description: `Page size (default ${options.defaultLimit}, maximum ${options.maxLimit})`,
        }),
      ),
      sort: Type.Optional(
        Type.String({
          maxLength: 100,
          description: `\`field\` or \`field,ASC|DESC\`; sortable fields: ${fields}`,
        }),
      ),
      order: Type.Optional(
        Type.String({
          maxLength: 100,
          description: '`ASC`/`DESC` (direction for `sort`), or `+field`/`-field` (ascending/descending)',
        }),
      ),
      ...extra,
    },
    { additionalProperties: false },
  );
}

export type PageQuery = { page?: number; limit?: number; sort?: string; order?: string };

export type PageRequest = {
  page: number;
  limit: number;
  offset: number;
  orderBy: SQL[];
  /** The same sort, every key reversed (NULL placement too: PostgreSQL's defaults mirror). */
  reverseOrderBy: SQL[];
  sortField: string;
  direction: SortDirection;
};

const DIRECTION = /^(ASC|DESC)$/i;

/** Reads both sort forms (`sort=field,DIRECTION` and `order=+field`) against the whitelist. */
export function resolvePage(query: PageQuery, options: PageOptions): PageRequest {
  const page = query.page ?? 1;
  const limit = Math.min(query.limit ?? options.defaultLimit, options.maxLimit);
  let field = options.defaultSort.field;
  let direction = options.defaultSort.direction;

  if (query.sort) {
    const [name, dir, ...rest] = query.sort.split(',').map((s) => s.trim());
    if (rest.length || (dir !== undefined && !DIRECTION.test(dir))) {
      throw badRequest('sort must be "field" or "field,ASC|DESC"', [
        { pointer: '/sort', message: 'malformed', in: 'query' },
      ]);
    }
    field = name!;
    if (dir) direction = dir.toUpperCase() as SortDirection;
    else if (!query.order) direction = 'ASC';
  }
  if (query.order) {
    const order = query.order.trim();
    if (DIRECTION.test(order)) {
      direction = order.toUpperCase() as SortDirection;
    } else {
      const match = /^([+\- ]?)([A-Za-z_][A-Za-z0-9_]*)$/.exec(order);
      if (!match) {
        throw badRequest('order must be ASC, DESC, +field or -field', [
          { pointer: '/order', message: 'malformed', in: 'query' },
        ]);
      }
      // A "+" in a query string arrives as a space when not percent-encoded.
      direction = match[1] === '-' ? 'DESC' : 'ASC';
      field = match[2]!;
    }
  }
  // Own keys only: `order=toString` or `sort=__proto__` must not find Object.prototype members.
  const column = Object.hasOwn(options.sortFields, field) ? options.sortFields[field] : undefined;
  if (!column) {
    throw badRequest(`Cannot sort by "${field}"`, [
      {
        pointer: '/sort',
        message: `must be one of: ${Object.keys(options.sortFields).join(', ')}`,
        in: 'query',
      },
    ]);
  }
  const by = direction === 'ASC' ? asc : desc;
  const reverse = direction === 'ASC' ? desc : asc;
  return {
    page,
    limit,
    offset: (page - 1) * limit,
    orderBy: [by(column), by(options.tieBreaker)],
    reverseOrderBy: [reverse(column), reverse(options.tieBreaker)],
    sortField: field,
    direction,
  };
}

/**
 * Where to read a page when the total is known exactly: the rows at positions offset .. offset +
 * limit (one more than the page, for hasNextPage). Past the middle the same rows are read from the
 * far end, in the reverse order: an OFFSET costs what it skips, so a page never skips more than
 * half of the rows. The caller sorts the rows it gets by `page.orderBy` again.
 */
export function pageWindow(
  page: PageRequest,
  total: number,
): { orderBy: SQL[]; offset: number; limit: number } {
  const limit = Math.max(0, Math.min(page.limit + 1, total - page.offset));
  if (page.offset * 2 <= total) return { orderBy: page.orderBy, offset: page.offset, limit };
  return { orderBy: page.reverseOrderBy, offset: Math.max(0, total - page.offset - limit), limit };
}

export type PageResult<T> = {
  data: T[];
  meta: { page: number; limit: number; total: number; hasNextPage: boolean };
};

export function pageResult<T>(
  data: T[],
  total: number,
  request: Pick<PageRequest, 'page' | 'limit'>,
): PageResult<T> {
  return {
    data,
    meta: {
      page: request.page,
      limit: request.limit,
      total,
      hasNextPage: request.page * request.limit < total,
    },
  };
}
