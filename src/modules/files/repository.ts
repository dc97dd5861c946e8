import { Type } from '@sinclair/typebox';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  type AttachableEntity,
  comments,
  fileContents,
  files,
  projects,
} from '../../db/schema/organisation-data.ts';
import { users } from '../../db/schema/platform.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import { type EntityDescriptor, entity } from '../../platform/events.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import { CommentSchema, FileSchema } from './schemas.ts';

/** A file's events deliver its metadata as GET .../files lists it. */
export const FILE_ENTITY = entity('FILE', 'files', 'files', {
  schema: Type.Object(FileSchema.properties, { $id: 'FileEventEntity', description: FileSchema.description }),
});
/** A comment's events deliver it as GET .../comments lists it, without its author (joined). */
export const COMMENT_ENTITY = entity('COMMENT', 'comments', 'comments', {
  schema: Type.Omit(CommentSchema, ['author'], { $id: 'CommentEventEntity' }),
});

/** How each owner of files and comments is named in events (`relation` of FILE/COMMENT events). */
export const PARENT_ENTITIES: Record<AttachableEntity, EntityDescriptor> = {
  order: entity('ORDER', 'orders'),
  article: entity('ARTICLE', 'articles'),
  project: entity('PROJECT', 'projects'),
  quote: entity('QUOTE', 'quotes'),
  brief: entity('BRIEF', 'briefs'),
  company: entity('COMPANY', 'companies'),
  import: entity('IMPORT', 'imports'),
  export: entity('EXPORT', 'exports'),
  organisation: entity('ORGANISATION', 'organisations'),
};

/** The record a file or comment belongs to. */
export type AttachmentTarget = { entity: AttachableEntity; entityId: string };

export const fileColumns = {
  id: files.id,
  entity: files.entity,
  entityId: files.entityId,
  filename: files.filename,
  mimeType: files.mimeType,
  size: files.size,
  sha256: files.sha256,
  label: files.label,
  createdById: files.createdById,
  createdAt: files.createdAt,
  updatedAt: files.updatedAt,
};

/** File metadata as the API shows it (the bytes are read separately). */
export type FileRow = {
  id: string;
  entity: AttachableEntity;
  entityId: string;
  filename: string;
  mimeType: string;
  size: number;
  sha256: string;
  label: string | null;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export const liveFiles = (organisationId: string, target?: AttachmentTarget) =>
  and(
    eq(files.organisationId, organisationId),
    isNull(files.deletedAt),
    target ? eq(files.entity, target.entity) : undefined,
    target ? eq(files.entityId, target.entityId) : undefined,
  );

/** A live file of the organisation (of the given record, when `target` is given), or undefined. */
export async function findFile(
  db: Executor,
  organisationId: string,
  id: string,
  target?: AttachmentTarget,
): Promise<FileRow | undefined> {
  const [row] = await db
    .select(fileColumns)
    .from(files)
    .where(and(eq(files.id, id), liveFiles(organisationId, target)))
    .limit(1);
  return row as FileRow | undefined;
}

export async function readFileContent(db: Executor, fileId: string): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ content: fileContents.content })
    .from(fileContents)
    .where(eq(fileContents.fileId, fileId))
    .limit(1);
  return row?.content;
}

/** Inserts a file's metadata and bytes; answers the metadata as the API shows it. */
export async function insertFile(tx: Executor, values: typeof files.$inferInsert, content: Buffer) {
  const [row] = await tx.insert(files).values(values).returning(fileColumns);
  await tx.insert(fileContents).values({ fileId: row!.id, content });
  return row as FileRow;
}

/** One page of a record's live files (only those with `label` when given), and their total. */
export async function listFilesPage(
  db: Executor,
  organisationId: string,
  target: AttachmentTarget,
  label: string | undefined,
  page: PageRequest,
) {
  const where = and(
    liveFiles(organisationId, target),
    label !== undefined ? eq(files.label, label) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(fileColumns)
      .from(files)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(files).where(where),
  ]);
  return { rows: rows as FileRow[], total: total?.count ?? 0 };
}

/** Every live file of a record, oldest first (ties by id). */
export async function listAllFiles(db: Executor, organisationId: string, target: AttachmentTarget) {
  const rows = await db
    .select(fileColumns)
    .from(files)
    .where(liveFiles(organisationId, target))
    .orderBy(files.createdAt, files.id);
  return rows as FileRow[];
}

/** Soft-deletes a live file of the organisation (metadata and bytes are kept). */
export async function softDeleteFile(tx: Executor, organisationId: string, id: string) {
  await tx
    .update(files)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(files.id, id), liveFiles(organisationId)));
}

/** Soft-deletes the organisation's live files of the record that carry `label`; answers them. */
export function softDeleteLabelledFiles(
  tx: Executor,
  organisationId: string,
  target: AttachmentTarget,
  label: string,
) {
  const now = new Date();
  return tx
    .update(files)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(liveFiles(organisationId, target), eq(files.label, label)))
    .returning(fileColumns);
}

/** Whether the live project exists in the organisation and the actor's companies (attachments' parent). */
export async function isProjectVisible(db: Executor, actor: Actor, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(
        eq(projects.id, id),
        eq(projects.organisationId, actor.organisationId),
        isNull(projects.deletedAt),
        inCompanyScope(actor, projects.companyId),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export const commentColumns = {
  id: comments.id,
  entity: comments.entity,
  entityId: comments.entityId,
  body: comments.body,
  createdById: comments.createdById,
  createdAt: comments.createdAt,
  updatedAt: comments.updatedAt,
  authorId: users.id,
  authorFirstName: users.firstName,
  authorLastName: users.lastName,
};

export type CommentRow = {
  id: string;
  entity: AttachableEntity;
  entityId: string;
  body: string;
  createdById: string | null;
  author: { id: string; firstName: string | null; lastName: string | null } | null;
  createdAt: Date;
  updatedAt: Date;
};

export const liveComments = (organisationId: string, target: AttachmentTarget) =>
  and(
    eq(comments.organisationId, organisationId),
    isNull(comments.deletedAt),
    eq(comments.entity, target.entity),
    eq(comments.entityId, target.entityId),
  );

type CommentSelect = {
  id: string;
  entity: AttachableEntity;
  entityId: string;
  body: string;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
  authorId: string | null;
  authorFirstName: string | null;
  authorLastName: string | null;
};

export function toComment(row: CommentSelect): CommentRow {
  const { authorId, authorFirstName, authorLastName, ...rest } = row;
  return {
    ...rest,
    author: authorId ? { id: authorId, firstName: authorFirstName, lastName: authorLastName } : null,
  };
}

/** Comments joined with their authors (users). */
export const selectComments = (db: Executor) =>
  db.select(commentColumns).from(comments).leftJoin(users, eq(users.id, comments.createdById));

export async function findComment(
  db: Executor,
  organisationId: string,
  id: string,
  target: AttachmentTarget,
): Promise<CommentRow | undefined> {
  const [row] = await selectComments(db)
    .where(and(eq(comments.id, id), liveComments(organisationId, target)))
    .limit(1);
  return row ? toComment(row as CommentSelect) : undefined;
}

/** One page of a record's live comments with their authors, and their total. */
export async function listCommentsPage(
  db: Executor,
  organisationId: string,
  target: AttachmentTarget,
  page: PageRequest,
) {
  const where = liveComments(organisationId, target);
  const [rows, [total]] = await Promise.all([
    selectComments(db)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(comments).where(where),
  ]);
  return { rows: rows.map(toComment), total: total?.count ?? 0 };
}

export async function insertComment(tx: Executor, values: typeof comments.$inferInsert) {
  const [row] = await tx.insert(comments).values(values).returning({ id: comments.id });
  return row!;
}

/** Changes the body of a live comment of the record. */
export async function updateCommentBody(
  tx: Executor,
  organisationId: string,
  target: AttachmentTarget,
  id: string,
  body: string,
) {
  await tx
    .update(comments)
    .set({ body, updatedAt: new Date() })
    .where(and(eq(comments.id, id), liveComments(organisationId, target)));
}

/** Soft-deletes a live comment of the record. */
export async function softDeleteComment(
  tx: Executor,
  organisationId: string,
  target: AttachmentTarget,
  id: string,
) {
  await tx
    .update(comments)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(comments.id, id), liveComments(organisationId, target)));
}
