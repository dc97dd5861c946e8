import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import {
  type Alias,
  registerOutputAliases,
  withInputAliases,
  withOutputAliases,
} from '../../platform/hipe.ts';
import {
  CustomFieldValues,
  DateTime,
  DateTimeInput,
  Nullable,
  NullableInput,
  Paginated,
  Uuid,
  type WithCustomFields,
} from '../../platform/schemas.ts';

/** HIPE's names of company properties. */
export const COMPANY_ALIASES: readonly Alias[] = registerOutputAliases([
  { alias: 'phone', of: 'phoneNumber' },
  { alias: 'vat', of: 'vatNumber' },
]);

const CollaboratorIds = Type.Array(Uuid, {
  uniqueItems: true,
  maxItems: 100,
  description: 'Users of the organisation (not contacts) who collaborate on the account (replaces the set)',
});

export const CompanySchema = withOutputAliases(
  Type.Object(
    {
      id: Uuid,
      organisationId: Uuid,
      name: Type.String(),
      externalId: Nullable(
        Type.String({ description: 'Identifier in the client’s ERP, unique per organisation' }),
      ),
      parentId: Nullable(Uuid),
      email: Nullable(Type.String()),
      phoneNumber: Nullable(Type.String()),
      website: Nullable(Type.String()),
      vatNumber: Nullable(Type.String()),
      managedById: Nullable(Uuid),
      collaboratorIds: Type.Array(Uuid),
      currencyId: Nullable(Uuid),
      customFields: CustomFieldValues,
      enabled: Type.Boolean(),
      createdById: Nullable(Uuid),
      createdAt: DateTime,
      updatedAt: DateTime,
      deletedAt: Nullable(DateTime),
    },
    { $id: 'Company', description: 'A client company; `parentId` places it in a hierarchy' },
  ),
  COMPANY_ALIASES,
);

const companyFields = {
  name: Type.String({ minLength: 1, maxLength: 300 }),
  externalId: NullableInput(
    Type.String({ minLength: 1, maxLength: 200, description: 'ERP identifier, unique per organisation' }),
  ),
  parentId: NullableInput(Type.String({ format: 'uuid', description: 'Parent company (same organisation)' })),
  email: NullableInput(Type.String({ format: 'email', maxLength: 320 })),
  phoneNumber: NullableInput(Type.String({ maxLength: 50 })),
  website: NullableInput(Type.String({ maxLength: 500 })),
  vatNumber: NullableInput(Type.String({ maxLength: 50 })),
  managedById: NullableInput(
    Type.String({
      format: 'uuid',
      description: 'The user of the organisation (not a contact) managing the account',
    }),
  ),
  collaboratorIds: CollaboratorIds,
  currencyId: NullableInput(Type.String({ format: 'uuid', description: 'A currency of the organisation' })),
  createdAt: Type.String({
    ...DateTimeInput,
    description: 'When the company was created, for records brought from another system (default: now)',
  }),
  customFields: CustomFieldValues,
  enabled: Type.Boolean({ description: 'Default true' }),
};

export const CreateCompanyBody = withInputAliases(
  Type.Object(
    {
      name: companyFields.name,
      externalId: Type.Optional(companyFields.externalId),
      parentId: Type.Optional(companyFields.parentId),
      email: Type.Optional(companyFields.email),
      phoneNumber: Type.Optional(companyFields.phoneNumber),
      website: Type.Optional(companyFields.website),
      vatNumber: Type.Optional(companyFields.vatNumber),
      managedById: Type.Optional(companyFields.managedById),
      collaboratorIds: Type.Optional(companyFields.collaboratorIds),
      currencyId: Type.Optional(companyFields.currencyId),
      createdAt: Type.Optional(companyFields.createdAt),
      customFields: Type.Optional(companyFields.customFields),
      enabled: Type.Optional(companyFields.enabled),
    },
    { additionalProperties: false },
  ),
  COMPANY_ALIASES,
);
export type CreateCompany = WithCustomFields<Static<typeof CreateCompanyBody>>;

export const UpdateCompanyBody = withInputAliases(
  Type.Object(
    {
      name: Type.Optional(companyFields.name),
      externalId: Type.Optional(companyFields.externalId),
      parentId: Type.Optional(companyFields.parentId),
      email: Type.Optional(companyFields.email),
      phoneNumber: Type.Optional(companyFields.phoneNumber),
      website: Type.Optional(companyFields.website),
      vatNumber: Type.Optional(companyFields.vatNumber),
      managedById: Type.Optional(companyFields.managedById),
      collaboratorIds: Type.Optional(companyFields.collaboratorIds),
      currencyId: Type.Optional(companyFields.currencyId),
      createdAt: Type.Optional(companyFields.createdAt),
      customFields: Type.Optional(companyFields.customFields),
      enabled: Type.Optional(companyFields.enabled),
    },
    {
      additionalProperties: false,
      description:
        'Only the properties sent change; `customFields` are merged (a key set to null is removed)',
    },
  ),
  COMPANY_ALIASES,
);
export type UpdateCompany = WithCustomFields<Static<typeof UpdateCompanyBody>>;

export const COMPANY_SORT_FIELDS = ['name', 'externalId', 'createdAt', 'updatedAt'] as const;

// ---------------------------------------------------------------------------------------------
// The @nestjsx/crud request grammar, shared by the company and contact searches.

/** Query string of a search in the @nestjsx/crud grammar (`s`, `filter`, `or`, `sort`, `limit`, ...). */
export function crudQuerySchema(options: {
  fields: readonly string[];
  defaultLimit: number;
  maxLimit: number;
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
export const SearchResult = <T extends TSchema>(item: T) =>
  Type.Union([Type.Array(item), Paginated(item)], {
    description: 'An array of matches, or `{data, meta}` when `page` is given',
  });
