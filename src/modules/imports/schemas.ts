import { Type } from '@sinclair/typebox';
import { IMPORT_STATUS } from '../../db/schema/imports.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { DateTime, Nullable, Uuid } from '../../platform/schemas.ts';
import { IMPORT_PAGE } from './service.ts';

const ImportErrorSchema = Type.Object({
  row: Nullable(Type.Integer({ description: 'Line of the file (the header is line 1)' })),
  column: Nullable(Type.String()),
  message: Type.String(),
});

export const ImportStatsSchema = Type.Object(
  {
    rowsTotal: Nullable(Type.Integer({ description: 'Data rows in the file, known once it was checked' })),
    rowsRead: Type.Integer({ description: 'Data rows processed (committed)' }),
    created: Type.Integer(),
    updated: Type.Integer(),
    deleted: Type.Integer({ description: 'Records archived because absent from the file (allowDelete)' }),
    unchanged: Type.Integer(),
    failed: Type.Integer({ description: 'Rows refused' }),
    errors: Type.Array(ImportErrorSchema, { description: 'The first 100 errors' }),
    startedAt: Nullable(Type.String({ format: 'date-time' })),
    finishedAt: Nullable(Type.String({ format: 'date-time' })),
    durationMs: Nullable(Type.Integer()),
    reason: Type.Optional(Type.String({ description: 'Why the import ended FAILED, CRASH or ABORTED' })),
    refused: Type.Optional(
      Type.Boolean({
        description:
          'true when the file was refused (header, columns, not CSV): status 7 CRASH, nothing written',
      }),
    ),
    notification: Type.Optional(
      Type.Object({
        emailId: Uuid,
        status: Type.String({ description: 'sent, stored (outbox, no SMTP server) or failed' }),
        at: Type.String({ format: 'date-time' }),
        error: Type.Optional(Type.String()),
      }),
    ),
    resumed: Type.Optional(Type.Integer({ description: 'Times processing resumed after an interruption' })),
  },
  { $id: 'ImportStats' },
);

export const ImportSchema = Type.Object(
  {
    id: Uuid,
    code: Type.Integer({ description: 'Sequential number per organisation' }),
    type: Type.String({ description: 'Import type code, see GET /api/imports/utils/get-types' }),
    status: Type.Integer({
      description: Object.entries(IMPORT_STATUS)
        .map(([name, code]) => `${code} ${name}`)
        .join(', '),
    }),
    statusName: Type.String(),
    delimiter: Type.String({ description: 'The delimiter character' }),
    createdById: Nullable(Uuid),
    fileId: Nullable(Uuid),
    dryRun: Type.Boolean(),
    fromDryRunId: Nullable(
      Type.String({
        format: 'uuid',
        description: 'The dry run this real run was started from (POST .../run)',
      }),
    ),
    realRunId: Type.Optional(
      Nullable(
        Type.String({
          format: 'uuid',
          description:
            'A dry run read alone (GET /api/imports/{id}): the real run started from it, null while none ' +
            '(POST .../run then answers 409 dry_run_already_run once one exists)',
        }),
      ),
    ),
    allowDelete: Type.Boolean(),
    stats: Type.Ref('ImportStats'),
    fileArchived: Type.Boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Import', description: 'A CSV import and its progress (see docs/imports.md)' },
);

/** The multipart body, for the OpenAPI document (the route reads the stream itself). */
export const CreateImportBody = {
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        nullable: true,
        properties: {
          type: {
            type: 'string',
            description: 'Import type: 16 (companies), 17 (contacts), 18 (articles), 19 (orders)',
          },
          delimiter: {
            type: 'string',
            description: 'comma, semicolon, tab, pipe, or the character itself (default comma)',
          },
          dryRun: { type: 'boolean', description: 'Compute the outcome without writing anything' },
          allowDelete: {
            type: 'boolean',
            description: 'Archive the records of the type absent from the file',
          },
          csv: {
            type: 'string',
            contentMediaType: 'text/csv',
            description: 'The CSV file (UTF-8, header row)',
          },
        },
        required: ['type', 'csv'],
      },
    },
  },
} as const;

export const ImportListQuery = pageQuerySchema(IMPORT_PAGE, {
  type: Type.Optional(Type.String({ maxLength: 50, description: 'Import type code or name' })),
  status: Type.Optional(
    Type.String({ maxLength: 100, description: 'Status codes or names, comma-separated (matches any)' }),
  ),
  delimiter: Type.Optional(
    Type.String({ maxLength: 20, description: 'The delimiter character or its name' }),
  ),
  start: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after this time' })),
  end: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or before this time' })),
  s: Type.Optional(
    Type.String({ maxLength: 200, description: 'Search: part of the import number or of the file name' }),
  ),
  filterId: Type.Optional(
    Type.String({ maxLength: 200, description: 'A saved filter of HIPE clients: accepted and ignored' }),
  ),
});

export const ImportTypeSchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  requiredColumns: Type.Array(Type.String()),
  columns: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
  customFieldColumns: Type.String({ description: 'How custom field columns are named' }),
});

export const ImportStatusSchema = Type.Object({
  code: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  terminal: Type.Boolean(),
});

export const DelimiterSchema = Type.Object({
  value: Type.String({ description: 'The character' }),
  name: Type.String({ description: 'Name accepted in place of the character' }),
  label: Type.String(),
});
