import { RequestQueryException, RequestQueryParser } from '@nestjsx/crud-request';
import { type AnyColumn, and, asc, desc, not, or, type SQL, sql } from 'drizzle-orm';
import { AppError } from './errors.ts';
import { isSupportedDate, SUPPORTED_DATE_MESSAGE } from './input-safety.ts';

/**
 * The @nestjsx/crud request grammar (`s`, `filter`, `or`, `sort`, `limit`, `offset`, `page`),
 * parsed by the maintained `@nestjsx/crud-request` parser and translated here to SQL over a
 * whitelist of fields. Unknown fields, operators or malformed JSON answer 400.
 */
export type CrudFieldType = 'string' | 'uuid' | 'number' | 'boolean' | 'date';
export type CrudFields = Record<string, { column: AnyColumn | SQL; type: CrudFieldType }>;

export type CrudQuery = {
  where?: SQL;
  orderBy: SQL[];
  limit: number;
  offset: number;
  /** Set when the client asked for a page: the answer is then the page envelope. */
  page?: number;
};

type Primitive = string | number | boolean | null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OPERATORS = new Set([
  '$eq',
  '$ne',
  '$gt',
  '$lt',
  '$gte',
  '$lte',
  '$starts',
  '$ends',
  '$cont',
  '$excl',
  '$in',
  '$notin',
  '$isnull',
  '$notnull',
  '$between',
  '$eqL',
  '$neL',
  '$startsL',
  '$endsL',
  '$contL',
  '$exclL',
  '$inL',
  '$notinL',
]);

/** The query parameter being read (`/s`, `/filter`, `/or`, `/sort`): parsing is synchronous. */
let at = '/s';
const invalid = (message: string) =>
  new AppError('invalid_query', message, { issues: [{ pointer: at, message, in: 'query' }] });

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function coerce(value: unknown, type: CrudFieldType, field: string): Primitive {
  if (value === null) return null;
  if (value instanceof Date) value = value.toISOString();
  switch (type) {
    case 'uuid':
      if (typeof value !== 'string' || !UUID.test(value))
        throw invalid(`${field} must be compared with a UUID`);
      return value;
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      if (typeof value === 'boolean' || !Number.isFinite(n))
        throw invalid(`${field} must be compared with a number`);
      return n;
    }
    case 'boolean':
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      throw invalid(`${field} must be compared with true or false`);
    case 'date': {
      const d = new Date(String(value));
      if (Number.isNaN(d.getTime())) throw invalid(`${field} must be compared with a date`);
      if (!isSupportedDate(d)) throw invalid(`${field}: the date ${SUPPORTED_DATE_MESSAGE}`);
      return d.toISOString();
    }
    default:
      if (typeof value === 'object') throw invalid(`${field} must be compared with a plain value`);
      if (String(value).includes('\u0000'))
        throw invalid(`${field} must not be compared with a NUL character (U+0000)`);
      return String(value);
  }
}

function list(value: unknown, type: CrudFieldType, field: string): Primitive[] {
  const values = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  if (values.length === 0) throw invalid(`${field}: the list is empty`);
  return values.map((v) => coerce(v, type, field));
}

function condition(field: string, operator: string, value: unknown, fields: CrudFields): SQL {
  const spec = Object.hasOwn(fields, field) ? fields[field] : undefined;
  if (typeof value === 'string' && value.includes('\u0000'))
    throw invalid(`${field} must not be compared with a NUL character (U+0000)`);
  if (!spec) throw invalid(`Unknown field "${field}"; searchable fields: ${Object.keys(fields).join(', ')}`);
  const op = operator.startsWith('$') ? operator : `$${operator}`;
  if (!OPERATORS.has(op)) throw invalid(`Unknown operator "${operator}"`);
  const col = spec.column;
  const lower = op.endsWith('L'); // the case-insensitive forms: $eqL, $contL, $inL ...
  const text = (v: Primitive) => (lower ? String(v).toLowerCase() : String(v));
  const target = lower ? sql`lower(${col}::text)` : spec.type === 'string' ? sql`${col}` : col;
  const like = (pattern: string) =>
    lower ? sql`${target} like ${pattern}` : sql`${col}::text like ${pattern}`;
  const one = () => coerce(value, lower ? 'string' : spec.type, field);
  switch (op) {
    case '$eq':
      return one() === null ? sql`${col} is null` : sql`${col} = ${one()}`;
    case '$ne':
      return one() === null ? sql`${col} is not null` : sql`${col} is distinct from ${one()}`;
    case '$gt':
      return sql`${col} > ${one()}`;
    case '$lt':
      return sql`${col} < ${one()}`;
    case '$gte':
      return sql`${col} >= ${one()}`;
    case '$lte':
      return sql`${col} <= ${one()}`;
    case '$isnull':
      return sql`${col} is null`;
    case '$notnull':
      return sql`${col} is not null`;
    case '$eqL':
      return sql`${target} = ${text(one())}`;
    case '$neL':
      return sql`${target} is distinct from ${text(one())}`;
    case '$starts':
    case '$startsL':
      return like(`${escapeLike(text(one()))}%`);
    case '$ends':
    case '$endsL':
      return like(`%${escapeLike(text(one()))}`);
    case '$cont':
    case '$contL':
      return like(`%${escapeLike(text(one()))}%`);
    case '$excl':
    case '$exclL':
      return not(like(`%${escapeLike(text(one()))}%`));
    case '$in':
    case '$notin':
    case '$inL':
    case '$notinL': {
      const values = list(value, lower ? 'string' : spec.type, field).map((v) => (lower ? text(v) : v));
      const inList = sql`${target} in (${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )})`;
      return op.startsWith('$notin') ? not(inList) : inList;
    }
    case '$between': {
      const values = list(value, spec.type, field);
      if (values.length !== 2) throw invalid(`${field}: $between takes two values`);
      return sql`${col} between ${values[0]} and ${values[1]}`;
    }
    default:
      throw invalid(`Unknown operator "${operator}"`);
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

function joinAll(parts: SQL[], combine: typeof and | typeof or): SQL {
  if (parts.length === 0) return sql`true`;
  return parts.length === 1 ? parts[0]! : combine(...parts)!;
}

/** Translates the `s` search object: `{field: value}`, `{field: {$op: v, $or: {...}}}`, `$and`, `$or`. */
function searchToSql(search: unknown, fields: CrudFields, depth = 0): SQL {
  if (depth > 10) throw invalid('The search is nested too deeply');
  if (!isPlainObject(search)) throw invalid('The search must be a JSON object');
  const parts: SQL[] = [];
  for (const [key, value] of Object.entries(search)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value)) throw invalid(`${key} takes an array of conditions`);
      const nested = value.map((v) => searchToSql(v, fields, depth + 1));
      parts.push(joinAll(nested, key === '$and' ? and : or));
      continue;
    }
    if (key.startsWith('$')) throw invalid(`Unknown operator "${key}" at the top of the search`);
    parts.push(fieldToSql(key, value, fields));
  }
  return joinAll(parts, and);
}

function fieldToSql(field: string, value: unknown, fields: CrudFields): SQL {
  if (!isPlainObject(value)) {
    if (Array.isArray(value)) return condition(field, '$in', value, fields);
    return condition(field, '$eq', value, fields);
  }
  const parts: SQL[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (op === '$or') {
      if (!isPlainObject(operand)) throw invalid(`${field}: $or takes an object of operators`);
      parts.push(
        joinAll(
          Object.entries(operand).map(([o, v]) => condition(field, o, v, fields)),
          or,
        ),
      );
    } else if (op === '$and') {
      if (!isPlainObject(operand)) throw invalid(`${field}: $and takes an object of operators`);
      parts.push(
        joinAll(
          Object.entries(operand).map(([o, v]) => condition(field, o, v, fields)),
          and,
        ),
      );
    } else {
      parts.push(condition(field, op, operand, fields));
    }
  }
  if (parts.length === 0) throw invalid(`${field}: no operator given`);
  return joinAll(parts, and);
}

export type CrudOptions = {
  fields: CrudFields;
  defaultLimit: number;
  maxLimit: number;
  defaultSort: SQL[];
};

export function parseCrudQuery(query: Record<string, unknown>, options: CrudOptions): CrudQuery {
  let parsed: RequestQueryParser;
  at = '/s';
  try {
    parsed = RequestQueryParser.create().parseQuery(query);
  } catch (error) {
    if (error instanceof RequestQueryException || error instanceof SyntaxError) throw invalid(error.message);
    throw error;
  }
  let where: SQL | undefined;
  if (parsed.search !== undefined) {
    at = '/s';
    where = searchToSql(parsed.search, options.fields);
  } else {
    at = '/filter';
    const filters = parsed.filter.map((f) => condition(f.field, f.operator, f.value, options.fields));
    at = '/or';
    const ors = parsed.or.map((f) => condition(f.field, f.operator, f.value, options.fields));
    // Same combination rules as @nestjsx/crud: filters are ANDed, `or` conditions ORed, and when
    // both are present the two groups are ORed with each other.
    if (filters.length && ors.length) where = or(joinAll(filters, and), joinAll(ors, and));
    else if (ors.length) where = joinAll(ors, or);
    else if (filters.length) where = joinAll(filters, and);
  }
  at = '/sort';
  const orderBy = parsed.sort.length
    ? parsed.sort.map((s) => {
        const spec = Object.hasOwn(options.fields, s.field) ? options.fields[s.field] : undefined;
        if (!spec) throw invalid(`Cannot sort by "${s.field}"`);
        return s.order === 'DESC' ? desc(spec.column) : asc(spec.column);
      })
    : options.defaultSort;
  const limit = Math.min(parsed.limit ?? options.defaultLimit, options.maxLimit);
  if (limit < 1) throw invalid('limit must be at least 1');
  const page = parsed.page;
  const offset = page ? (page - 1) * limit : (parsed.offset ?? 0);
  return { where, orderBy, limit, offset, page };
}
