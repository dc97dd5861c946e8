import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AttachableEntity } from '../../db/schema/organisation-data.ts';
import type { Actor } from '../../platform/actor.ts';
import { contentDisposition } from '../../platform/content-disposition.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, Paginated, problemResponses, Uuid } from '../../platform/schemas.ts';
import { PARENT_ENTITIES } from './repository.ts';
import {
  CommentBody,
  CommentListQuery,
  CommentSchema,
  FileListQuery,
  FileSchema,
  UploadBody,
} from './schemas.ts';
import type { createCommentsService, createFilesService } from './service.ts';

/** A download body (a plain schema object: the bytes are sent as they are, never serialised). */
const BINARY: { type: string; contentMediaType: string } = {
  type: 'string',
  contentMediaType: 'application/octet-stream',
};

/** The Fastify instance a TypeBox plugin receives. */
export type TypeboxApp = Parameters<FastifyPluginAsyncTypebox>[0];

export type AttachmentRouteOptions = {
  /** The kind of record that owns the files and comments (files.entity / comments.entity). */
  entity: AttachableEntity;
  /**
   * The record's path relative to the plugin prefix, with its id as `:id`, e.g. '/projects/:id'
   * or '/orders/:id'. The routes are added below it: `{path}/files`, `{path}/comments`...
   */
  path: string;
  /**
   * Throws (normally `notFound('Project')`) unless the record exists in the actor's organisation,
   * is not deleted and is visible to the actor (companyScope for external_sales and contacts).
   * Called before every operation, so another tenant's record answers 404.
   */
  assertParentVisible: (actor: Actor, id: string) => Promise<void>;
  /**
   * Optional extra check before uploads, deletions and comment writes (e.g. refuse changes to a
   * locked quote with 409). Runs after assertParentVisible. Default: none.
   */
  assertParentWritable?: (actor: Actor, id: string) => Promise<void>;
  /** OpenAPI tags (default: the entity's plural, e.g. ['projects']). */
  tags?: string[];
  /**
   * Whether the record takes uploaded files (default true). Quotes take comments only: their
   * files are the stored PDFs the quote module renders.
   */
  files?: boolean;
  /** Word used in the operation ids (default: the capitalised entity, e.g. 'Project' -> 'uploadProjectFile'). */
  operationName?: string;
};

/**
 * The files module's services, which every module with attachments is given
 * (`filesModule.services(ctx)`).
 */
export type AttachmentServices = {
  files: ReturnType<typeof createFilesService>;
  comments: ReturnType<typeof createCommentsService>;
};

/**
 * Adds file and comment routes below a record's path:
 *
 * - `POST   {path}/files`             multipart/form-data: field `file` (required), optional `label` -> 201 File
 * - `GET    {path}/files`             paginated metadata (`?label=` filter)
 * - `GET    {path}/files/:fileId`     download (Content-Type, Content-Disposition: attachment)
 * - `DELETE {path}/files/:fileId`     soft delete (contacts: only their own uploads)
 * - `POST   {path}/comments`          `{ body }` -> 201 Comment
 * - `GET    {path}/comments`          paginated, oldest first
 * - `PATCH  {path}/comments/:commentId`  `{ body }`, author or admin only (403)
 * - `DELETE {path}/comments/:commentId`  soft delete, author or admin only (403)
 *
 * Permissions: `files:read` for reads, `files:write` for writes. Uploads are limited to
 * `config.fileSizeLimitBytes` (413); a request that is not multipart answers 415.
 *
 * Call it from a module's plugin body, e.g. in orders/routes.ts:
 *   registerAttachmentRoutes(app, attachments, {
 *     entity: 'order', path: '/orders/:id',
 *     assertParentVisible: async (actor, id) => { await ordersService.get(actor, id); },
 *   });
 */
export function registerAttachmentRoutes(
  app: TypeboxApp,
  { files: filesService, comments: commentsService }: AttachmentServices,
  options: AttachmentRouteOptions,
) {
  if (!options.path.includes(':id')) throw new Error(`Attachment path ${options.path} has no :id parameter`);
  const tags = options.tags ?? [PARENT_ENTITIES[options.entity].plural];
  const name = options.operationName ?? options.entity.charAt(0).toUpperCase() + options.entity.slice(1);
  const what = options.entity;
  const target = (id: string) => ({ entity: options.entity, entityId: id });
  const visible = (actor: Actor, id: string) => options.assertParentVisible(actor, id);
  const writable = async (actor: Actor, id: string) => {
    await options.assertParentVisible(actor, id);
    if (options.assertParentWritable) await options.assertParentWritable(actor, id);
  };
  const ParentParams = Type.Object({ id: Uuid });
  const FileParams = Type.Object({ id: Uuid, fileId: Uuid });
  const CommentParams = Type.Object({ id: Uuid, commentId: Uuid });

  if (options.files !== false) {
    app.post(
      `${options.path}/files`,
      {
        config: { permission: 'files:write' },
        schema: {
          tags,
          operationId: `upload${name}File`,
          summary: `Upload a file to a ${what}`,
          description:
            `multipart/form-data with the file in the field \`file\` and an optional \`label\`. ` +
            `Files larger than the configured limit answer 413; a body that is not multipart answers 415.`,
          params: ParentParams,
          body: UploadBody,
          response: { 201: FileSchema, ...problemResponses(413, 415) },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        await writable(actor, request.params.id);
        return reply.status(201).send(await filesService.upload(actor, request, target(request.params.id)));
      },
    );

    app.get(
      `${options.path}/files`,
      {
        config: { permission: 'files:read' },
        schema: {
          tags,
          operationId: `list${name}Files`,
          summary: `List the files of a ${what}`,
          params: ParentParams,
          querystring: FileListQuery,
          response: { 200: Paginated(FileSchema), ...problemResponses() },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        await visible(actor, request.params.id);
        return filesService.list(actor, target(request.params.id), request.query);
      },
    );

    app.get(
      `${options.path}/files/:fileId`,
      {
        config: { permission: 'files:read' },
        schema: {
          tags,
          operationId: `download${name}File`,
          summary: `Download a file of a ${what}`,
          params: FileParams,
          response: {
            200: {
              description: 'The file content, with its media type and file name',
              content: { 'application/octet-stream': { schema: BINARY } },
            },
            ...problemResponses(),
          },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        await visible(actor, request.params.id);
        const { file, content } = await filesService.read(
          actor,
          request.params.fileId,
          target(request.params.id),
        );
        return reply
          .header('content-type', file.mimeType)
          .header('content-length', String(content.length))
          .header('content-disposition', contentDisposition(file.filename))
          .header('x-content-type-options', 'nosniff')
          .header('etag', `"${file.sha256}"`)
          .send(content);
      },
    );

    app.delete(
      `${options.path}/files/:fileId`,
      {
        config: { permission: 'files:write' },
        schema: {
          tags,
          operationId: `delete${name}File`,
          summary: `Delete a file of a ${what} (soft delete)`,
          description: 'Contacts may only delete the files they uploaded (403).',
          params: FileParams,
          response: { 200: DeletedResponse, ...problemResponses() },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        await writable(actor, request.params.id);
        return filesService.remove(actor, request.params.fileId, target(request.params.id));
      },
    );
  }

  app.post(
    `${options.path}/comments`,
    {
      config: { permission: 'files:write' },
      schema: {
        tags,
        operationId: `create${name}Comment`,
        summary: `Comment on a ${what}`,
        params: ParentParams,
        body: CommentBody,
        response: { 201: CommentSchema, ...problemResponses() },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await writable(actor, request.params.id);
      const comment = await commentsService.create(actor, target(request.params.id), request.body.body);
      return reply.status(201).send(comment);
    },
  );

  app.get(
    `${options.path}/comments`,
    {
      config: { permission: 'files:read' },
      schema: {
        tags,
        operationId: `list${name}Comments`,
        summary: `List the comments on a ${what}, oldest first`,
        params: ParentParams,
        querystring: CommentListQuery,
        response: { 200: Paginated(CommentSchema), ...problemResponses() },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await visible(actor, request.params.id);
      return commentsService.list(actor, target(request.params.id), request.query);
    },
  );

  app.patch(
    `${options.path}/comments/:commentId`,
    {
      config: { permission: 'files:write' },
      schema: {
        tags,
        operationId: `update${name}Comment`,
        summary: `Edit a comment on a ${what} (its author or an admin)`,
        params: CommentParams,
        body: CommentBody,
        response: { 200: CommentSchema, ...problemResponses() },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await writable(actor, request.params.id);
      return commentsService.update(
        actor,
        target(request.params.id),
        request.params.commentId,
        request.body.body,
      );
    },
  );

  app.delete(
    `${options.path}/comments/:commentId`,
    {
      config: { permission: 'files:write' },
      schema: {
        tags,
        operationId: `delete${name}Comment`,
        summary: `Delete a comment on a ${what} (its author or an admin; soft delete)`,
        params: CommentParams,
        response: { 200: DeletedResponse, ...problemResponses() },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await writable(actor, request.params.id);
      return commentsService.remove(actor, target(request.params.id), request.params.commentId);
    },
  );
}
