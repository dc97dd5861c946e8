import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { EventRecorder } from '../../platform/events.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { readMultipartForm } from './multipart.ts';
import {
  type AttachmentTarget,
  COMMENT_ENTITY,
  type CommentRow,
  FILE_ENTITY,
  type FileRow,
  findComment,
  findFile,
  insertComment,
  insertFile,
  isProjectVisible,
  listAllFiles,
  listCommentsPage,
  listFilesPage,
  PARENT_ENTITIES,
  readFileContent,
  softDeleteComment,
  softDeleteFile,
  updateCommentBody,
} from './repository.ts';
import { COMMENT_PAGE, FILE_PAGE, MAX_LABEL_LENGTH } from './schemas.ts';

/** Who stores a file: a user, or a job acting for the organisation (systemActor). */
export type FileActor = Pick<Actor, 'organisationId' | 'userId'>;

/** A file to store for a record (generated PDFs, import CSVs, uploads). */
export type NewFile = AttachmentTarget & {
  filename: string;
  mimeType: string;
  content: Buffer;
  label?: string | null;
  /** What a stored rendering was made from (quote PDFs), to know when it is stale. */
  renderKey?: string | null;
};

const ADMINS: readonly string[] = ['superadmin', 'admin'];
const isAdmin = (actor: Actor) => ADMINS.includes(actor.role);

const relationOf = (target: AttachmentTarget) => ({
  relation: PARENT_ENTITIES[target.entity],
  relationId: target.entityId,
});

/**
 * The file store: metadata in `files`, bytes in `file_contents` (in the database, so every node
 * serves every file). Every method is scoped by the actor's organisation; passing `target` also
 * requires the file to belong to that record. Checking that the actor may see the record itself
 * is the caller's job (registerAttachmentRoutes does it with its `assertParentVisible`).
 */
export function createFilesService(ctx: Pick<AppContext, 'db' | 'change' | 'config'>) {
  /**
   * Stores a file inside the caller's transaction and records its FILE CREATE event (with the
   * owning record as `relation`). No size limit applies: it is meant for files the service
   * generates (quote PDFs) or has already checked (import CSVs). Use it within `ctx.change`:
   * `ctx.change(actor, (tx, record) => files.storeFile(tx, actor, {...}, record))`.
   */
  async function storeFile(
    tx: Tx,
    actor: FileActor,
    input: NewFile,
    record: EventRecorder,
  ): Promise<FileRow> {
    const label = input.label?.trim() || null;
    const row = await insertFile(
      tx,
      {
        organisationId: actor.organisationId,
        entity: input.entity,
        entityId: input.entityId,
        filename: input.filename,
        mimeType: input.mimeType,
        size: input.content.length,
        sha256: createHash('sha256').update(input.content).digest('hex'),
        label,
        renderKey: input.renderKey ?? null,
        createdById: actor.userId,
      },
      input.content,
    );
    await record({
      on: FILE_ENTITY,
      type: 'CREATE',
      entityId: row.id,
      snapshot: row,
      ...relationOf(input),
    });
    return row;
  }

  async function get(actor: FileActor, id: string, target?: AttachmentTarget): Promise<FileRow> {
    const row = await findFile(ctx.db, actor.organisationId, id, target);
    if (!row) throw notFound('File');
    return row;
  }

  async function read(actor: FileActor, id: string, target?: AttachmentTarget) {
    const file = await get(actor, id, target);
    const content = await readFileContent(ctx.db, id);
    if (!content) throw notFound('File');
    return { file, content };
  }

  return {
    storeFile,

    /**
     * 404 unless the project is live and visible to the actor: the parent check of a project's
     * attachments (kept here rather than in the projects module to keep the modules independent).
     */
    async assertProjectVisible(actor: Actor, id: string): Promise<void> {
      if (!(await isProjectVisible(ctx.db, actor, id))) throw notFound('Project');
    },

    /** Stores a file in its own transaction (with its event); see storeFile. */
    create: (actor: FileActor, input: NewFile) =>
      ctx.change(actor, (tx, record) => storeFile(tx, actor, input, record)),

    /**
     * Reads the multipart request (field `file`, optional `label`) within the configured size
     * limit (413 beyond) and stores the file for the record.
     */
    async upload(actor: FileActor, request: FastifyRequest, target: AttachmentTarget): Promise<FileRow> {
      const { file, fields } = await readMultipartForm(request, {
        fileField: 'file',
        fields: ['label'],
        limitBytes: ctx.config.fileSizeLimitBytes,
        maxFieldLength: MAX_LABEL_LENGTH,
      });
      return ctx.change(actor, (tx, record) =>
        storeFile(tx, actor, { ...target, ...file, label: fields.label }, record),
      );
    },

    /** The live files of a record, paginated (optionally only those with a given label). */
    async list(actor: FileActor, target: AttachmentTarget, query: PageQuery & { label?: string }) {
      const page = resolvePage(query, FILE_PAGE);
      const { rows, total } = await listFilesPage(ctx.db, actor.organisationId, target, query.label, page);
      return pageResult(rows, total, page);
    },

    /** Every live file of a record, oldest first (e.g. the PDFs of a quote). */
    async listAll(actor: FileActor, target: AttachmentTarget): Promise<FileRow[]> {
      return listAllFiles(ctx.db, actor.organisationId, target);
    },

    /** The metadata of a live file (404 when missing, deleted, of another tenant or record). */
    get,

    /** The metadata and bytes of a live file. */
    read,

    /** The metadata and a stream of the bytes of a live file, to send as a download. */
    async stream(actor: FileActor, id: string, target?: AttachmentTarget) {
      const { file, content } = await read(actor, id, target);
      return { file, stream: Readable.from([content]) };
    },

    /**
     * Soft delete (metadata and bytes are kept, the file disappears from listings and downloads).
     * With an actor of a user role, contacts may only delete the files they uploaded.
     */
    remove: (actor: FileActor | Actor, id: string, target?: AttachmentTarget) =>
      ctx.change(actor, async (tx, record) => {
        const before = await findFile(tx, actor.organisationId, id, target);
        if (!before) throw notFound('File');
        if ('role' in actor && actor.role === 'contact' && before.createdById !== actor.userId) {
          throw forbidden('Contacts may only delete the files they uploaded');
        }
        await softDeleteFile(tx, actor.organisationId, id);
        await record({
          on: FILE_ENTITY,
          type: 'DELETE',
          entityId: id,
          snapshot: before,
          ...relationOf(before),
        });
        return { id, deleted: true as const };
      }),
  };
}

export type FilesService = ReturnType<typeof createFilesService>;

/** Comments on a record. Only their author or an admin changes or deletes them. */
export function createCommentsService(ctx: Pick<AppContext, 'db' | 'change'>) {
  async function mine(tx: Tx, actor: Actor, target: AttachmentTarget, id: string) {
    const comment = await findComment(tx, actor.organisationId, id, target);
    if (!comment) throw notFound('Comment');
    if (comment.createdById !== actor.userId && !isAdmin(actor)) {
      throw forbidden('Only the author of a comment or an administrator may change it');
    }
    return comment;
  }

  return {
    async list(actor: Actor, target: AttachmentTarget, query: PageQuery) {
      const page = resolvePage(query, COMMENT_PAGE);
      const { rows, total } = await listCommentsPage(ctx.db, actor.organisationId, target, page);
      return pageResult(rows, total, page);
    },

    create: (actor: Actor, target: AttachmentTarget, body: string) =>
      ctx.change(actor, async (tx, record) => {
        const text = body.trim();
        if (!text)
          throw badRequest('A comment needs a body', [{ pointer: '/body', message: 'is blank', in: 'body' }]);
        const inserted = await insertComment(tx, {
          organisationId: actor.organisationId,
          ...target,
          body: text,
          createdById: actor.userId,
        });
        const row = (await findComment(tx, actor.organisationId, inserted.id, target))!;
        await record({
          on: COMMENT_ENTITY,
          type: 'CREATE',
          entityId: row.id,
          snapshot: row,
          ...relationOf(target),
        });
        return row;
      }),

    update: (actor: Actor, target: AttachmentTarget, id: string, body: string) =>
      ctx.change(actor, async (tx, record): Promise<CommentRow> => {
        const before = await mine(tx, actor, target, id);
        const text = body.trim();
        if (text === before.body) return before;
        await updateCommentBody(tx, actor.organisationId, target, id, text);
        const row = (await findComment(tx, actor.organisationId, id, target))!;
        await record({
          on: COMMENT_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: row,
          updatedColumns: ['body'],
          ...relationOf(target),
        });
        return row;
      }),

    remove: (actor: Actor, target: AttachmentTarget, id: string) =>
      ctx.change(actor, async (tx, record) => {
        const before = await mine(tx, actor, target, id);
        await softDeleteComment(tx, actor.organisationId, target, id);
        await record({
          on: COMMENT_ENTITY,
          type: 'DELETE',
          entityId: id,
          snapshot: before,
          ...relationOf(target),
        });
        return { id, deleted: true as const };
      }),
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
