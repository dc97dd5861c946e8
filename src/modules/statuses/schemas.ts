import { Type } from '@sinclair/typebox';
import { STATUS_ENTITIES, statuses } from '../../db/schema/organisation-data.ts';
import {
  type Alias,
  registerOutputAliases,
  withInputAliases,
  withOutputAliases,
} from '../../platform/hipe.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { DateTime, Nullable, NullableInput, StringEnum, Uuid } from '../../platform/schemas.ts';

/**
 * HIPE's entity names (upper-case plurals, any case accepted) for ours: `QUOTES` -> `quote`.
 * Our singular names are accepted as well.
 */
const HIPE_ENTITIES: Record<string, (typeof STATUS_ENTITIES)[number]> = {
  quotes: 'quote',
  briefs: 'brief',
  projects: 'project',
  companies: 'company',
  tasks: 'task',
  configurations: 'configuration',
  submissions: 'submission',
  orders: 'order',
  articles: 'article',
  files: 'file',
};

/** Our entity name for ours or HIPE's, in any case; the value itself when unknown (validation refuses it). */
export function statusEntityOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const lower = value.trim().toLowerCase();
  if ((STATUS_ENTITIES as readonly string[]).includes(lower)) return lower;
  return HIPE_ENTITIES[lower] ?? value;
}

/** HIPE's names of status properties. */
export const STATUS_ALIASES: readonly Alias[] = registerOutputAliases([
  { alias: 'isCreation', of: 'isDefault' },
  { alias: 'bgColor', of: 'color' },
]);

export const StatusEntitySchema = StringEnum(STATUS_ENTITIES, {
  description: 'The kind of record the status applies to',
});

/**
 * `entity` in a request: ours or HIPE's upper-case names (`QUOTES`, `FILE`), documented in the enum so a
 * generated client may send either. Typed as ours: the routes' preValidation hook maps HIPE's name
 * (in any case) to ours before the schema is applied.
 */
export const StatusEntityInput = Type.Unsafe<(typeof STATUS_ENTITIES)[number]>({
  type: 'string',
  // HIPE's node sends upper-case plurals, and `FILE` (ours in upper case): both are listed.
  enum: [
    ...new Set([
      ...STATUS_ENTITIES,
      ...Object.keys(HIPE_ENTITIES).map((name) => name.toUpperCase()),
      ...STATUS_ENTITIES.map((name) => name.toUpperCase()),
    ]),
  ],
  description:
    'The kind of record the status applies to; HIPE’s names (`QUOTES`, ... in any case) are accepted as aliases',
});

const Label = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'Colour as #RRGGBB' });
const Position = Type.Integer({ minimum: 0, maximum: 10_000, description: 'Order in the workflow, from 0' });

/** A language tag as a key of labels per language: `en`, `fr`, `pt-BR`. */
const LanguageTag = Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$' });

const Labels = Type.Record(LanguageTag, Type.String(), {
  description: 'The label per language, e.g. `{"en": "Won", "fr": "Gagné"}`',
});

/**
 * A label as text, or per language as HIPE sends it (`{"en": "...", "fr": "..."}`): the languages
 * are kept in `internalLabels`/`externalLabels`, and the label is the English one (else the first).
 * Per language, only language tags and texts: any other key (`{"$ne": null}`) is refused (issue 23:
 * it reached the service, which trimmed its value).
 */
const LabelInput = Type.Union(
  [
    Label,
    Type.Record(LanguageTag, Type.String({ maxLength: 100 }), {
      additionalProperties: false,
      description: 'Per language (HIPE client): language tags and texts only',
    }),
  ],
  { description: 'Text, or an object of texts per language (`{"en": "...", "fr": "..."}`)' },
);

const Flag = (description: string) => Type.Boolean({ description });

export const StatusSchema = withOutputAliases(
  Type.Object(
    {
      id: Uuid,
      entity: StatusEntitySchema,
      internalLabel: Type.String({ description: 'Label shown to the organisation’s staff' }),
      externalLabel: Type.String({ description: 'Label shown to clients (contacts)' }),
      internalLabels: Labels,
      externalLabels: Labels,
      position: Type.Integer(),
      color: Nullable(Type.String({ description: 'Background colour' })),
      fgColor: Nullable(Type.String({ description: 'Text colour' })),
      isDefault: Type.Boolean({ description: 'Given to new records of the entity without a status' }),
      isCompleted: Flag('A status that ends the workflow (done, won, delivered...)'),
      isOverdue: Flag('A status that marks records as late'),
      externalId: Nullable(Type.String()),
      createdById: Nullable(Uuid),
      createdAt: DateTime,
      updatedAt: DateTime,
    },
    { $id: 'Status', description: 'A configurable status of orders, quotes, briefs, articles or projects' },
  ),
  STATUS_ALIASES,
);

const hipeStatusFields = {
  fgColor: Type.Optional(NullableInput({ ...Color, description: 'Text colour as #RRGGBB' })),
  isCompleted: Type.Optional(Flag('A status that ends the workflow')),
  isOverdue: Type.Optional(Flag('A status that marks records as late')),
  externalId: Type.Optional(
    NullableInput(Type.String({ minLength: 1, maxLength: 200, description: 'Identifier in another system' })),
  ),
};

/** HIPE's create puts the colours in `additionalFields`. */
const AdditionalFields = Type.Object(
  {
    fgColor: Type.Optional(NullableInput({ ...Color, description: 'Text colour as #RRGGBB' })),
    bgColor: Type.Optional(NullableInput({ ...Color, description: 'Alias of `color` (HIPE client)' })),
  },
  { additionalProperties: false, description: 'HIPE client: the colours, as if sent at the top level' },
);

export const CreateStatusBody = withInputAliases(
  Type.Object(
    {
      entity: StatusEntityInput,
      internalLabel: LabelInput,
      externalLabel: Type.Optional(LabelInput),
      position: Type.Optional(Position),
      color: Type.Optional(NullableInput(Color)),
      isDefault: Type.Optional(
        Type.Boolean({
          description: 'Makes this the default status of the entity (the previous one stops being)',
        }),
      ),
      ...hipeStatusFields,
      additionalFields: Type.Optional(AdditionalFields),
    },
    { additionalProperties: false },
  ),
  STATUS_ALIASES,
);

export const UpdateStatusBody = withInputAliases(
  Type.Object(
    {
      entity: Type.Optional({
        ...StatusEntityInput,
        description: 'A status keeps its entity: only its own entity is accepted (400 otherwise)',
      }),
      internalLabel: Type.Optional(LabelInput),
      externalLabel: Type.Optional(LabelInput),
      position: Type.Optional(Position),
      color: Type.Optional(NullableInput(Color)),
      isDefault: Type.Optional(
        Type.Boolean({
          description:
            'true makes this the default; false is refused on the default (mark another one instead)',
        }),
      ),
      ...hipeStatusFields,
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  STATUS_ALIASES,
);

export const STATUS_PAGE = {
  defaultLimit: 100,
  maxLimit: 500,
  sortFields: {
    position: statuses.position,
    internalLabel: statuses.internalLabel,
    entity: statuses.entity,
    createdAt: statuses.createdAt,
    updatedAt: statuses.updatedAt,
  },
  tieBreaker: statuses.id,
  defaultSort: { field: 'position', direction: 'ASC' as const },
};

export const StatusListQuery = pageQuerySchema(STATUS_PAGE, { entity: Type.Optional(StatusEntityInput) });
