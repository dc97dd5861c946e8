import { Type } from '@sinclair/typebox';
import { ATTACHABLE_ENTITIES, comments, files } from '../../db/schema/organisation-data.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { DateTime, Nullable, StringEnum, Uuid } from '../../platform/schemas.ts';

// Schemas here carry no $id: registerAttachmentRoutes is called by several modules, some served
// under two prefixes, and inline schemas avoid clashing shared-schema ids.

export const AttachableEntitySchema = StringEnum(ATTACHABLE_ENTITIES);

export const FileSchema = Type.Object(
  {
    id: Uuid,
    entity: AttachableEntitySchema,
    entityId: Uuid,
    filename: Type.String(),
    mimeType: Type.String(),
    size: Type.Integer({ description: 'Bytes' }),
    sha256: Type.String({ description: 'SHA-256 of the content, hexadecimal' }),
    label: Nullable(Type.String()),
    createdById: Nullable(Uuid),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { description: 'File metadata; the content is downloaded separately' },
);

export const CommentSchema = Type.Object({
  id: Uuid,
  entity: AttachableEntitySchema,
  entityId: Uuid,
  body: Type.String(),
  createdById: Nullable(Uuid),
  author: Nullable(
    Type.Object({ id: Uuid, firstName: Nullable(Type.String()), lastName: Nullable(Type.String()) }),
  ),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const CommentBody = Type.Object(
  { body: Type.String({ minLength: 1, maxLength: 10_000, pattern: '\\S' }) },
  { additionalProperties: false },
);

/** Longest accepted file label (e.g. a language code for quote PDFs, "preview"). */
export const MAX_LABEL_LENGTH = 100;

/**
 * The multipart body of an upload, for the OpenAPI document. The body itself is read as a stream
 * by readMultipartForm (Fastify sees no parsed body, hence `nullable`).
 */
export const UploadBody = {
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        nullable: true,
        properties: {
          file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file' },
          label: { type: 'string', maxLength: MAX_LABEL_LENGTH, description: 'Optional free label' },
        },
        required: ['file'],
      },
    },
  },
} as const;

export const FILE_PAGE = {
  defaultLimit: 50,
  maxLimit: 200,
  sortFields: {
    createdAt: files.createdAt,
    filename: files.filename,
    size: files.size,
    label: files.label,
  },
  tieBreaker: files.id,
  defaultSort: { field: 'createdAt', direction: 'ASC' as const },
};

export const COMMENT_PAGE = {
  defaultLimit: 50,
  maxLimit: 200,
  sortFields: { createdAt: comments.createdAt, updatedAt: comments.updatedAt },
  tieBreaker: comments.id,
  defaultSort: { field: 'createdAt', direction: 'ASC' as const },
};

export const FileListQuery = pageQuerySchema(FILE_PAGE, {
  label: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_LABEL_LENGTH })),
});
export const CommentListQuery = pageQuerySchema(COMMENT_PAGE);
