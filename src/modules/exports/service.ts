import { stringify } from 'csv-stringify/sync';
import type { AppContext } from '../../context.ts';
import type { ExportStats } from '../../db/schema/exports.ts';
import { IMPORT_STATUS } from '../../db/schema/imports.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { entity } from '../../platform/events.ts';
import { isSupportedDate, SUPPORTED_DATE_MESSAGE } from '../../platform/input-safety.ts';
import { findFile, readFileContent } from '../files/repository.ts';
import type { FilesService } from '../files/service.ts';
import { delimiterOf, IMPORT_TYPES, importTypeOf, STATUS_NAMES } from '../imports/import-types.ts';
import {
  claimExport,
  type ExportRow,
  findLiveExport,
  insertExport,
  listExports,
  organisationUserIds,
  updateExport,
} from './repository.ts';
import { exportRows } from './writers.ts';

export const EXPORT_ENTITY = entity('EXPORT', 'exports');
export const EXPORT_JOB = 'exports.run';
export type ExportJob = { exportId: string };
/** Attempts of the job before the export ends in 7 CRASH. */
export const EXPORT_ATTEMPTS = 3;
/** An export in progress this long without finishing is taken as interrupted (recovery.ts). */
export const EXPORT_STALE_AFTER_MS = 15 * 60_000;

/** Our names, and HIPE's (`start_date`, `end_date`, `user_ids`) as aliases. */
export function presentExport(row: ExportRow) {
  const type = IMPORT_TYPES.find((t) => t.code === row.type);
  return {
    id: row.id,
    type: row.type,
    typeName: type?.name ?? row.type,
    status: row.status,
    statusName: STATUS_NAMES[row.status as keyof typeof STATUS_NAMES] ?? String(row.status),
    delimiter: row.delimiter,
    startDate: row.startDate,
    endDate: row.endDate,
    userIds: row.userIds,
    start_date: row.startDate,
    end_date: row.endDate,
    user_ids: row.userIds,
    fileId: row.fileId,
    stats: row.stats,
    archived: row.archivedAt !== null,
    archivedAt: row.archivedAt,
    createdById: row.createdById,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export type CreateExportInput = {
  type: number | string;
  start_date?: string | null;
  end_date?: string | null;
  user_ids?: string[];
  startDate?: string | null;
  endDate?: string | null;
  userIds?: string[];
  delimiter?: string;
};

export type ExportListQuery = {
  page?: number;
  limit?: number;
  status?: string;
  type?: string;
  start?: string;
  end?: string;
  s?: string;
  filterId?: string;
  sort?: string;
};

function dateOf(
  value: string | null | undefined,
  pointer: string,
  location: 'body' | 'query' = 'body',
): Date | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw badRequest(`${pointer.slice(1)} is not a date`, [
      { pointer, message: 'must be an ISO 8601 date or timestamp', in: location },
    ]);
  }
  // The database compares timestamps in its own range only (issue 14, defect 5).
  if (!isSupportedDate(date)) {
    throw badRequest(`${pointer.slice(1)} is out of range`, [
      { pointer, message: SUPPORTED_DATE_MESSAGE, in: location },
    ]);
  }
  return date;
}

export function createExportService(
  ctx: Pick<AppContext, 'db' | 'change' | 'jobs' | 'log'>,
  /** The app's file store (filesModule): an export's CSV is one of its files. */
  { files }: { files: Pick<FilesService, 'storeFile'> },
) {
  const { db } = ctx;

  async function find(actor: Actor, id: string) {
    const row = await findLiveExport(db, actor.organisationId, id);
    if (!row) throw notFound('Export');
    return row;
  }

  /** Writes the CSV of a requested export; retried by the job, 7 CRASH after the last attempt. */
  async function run(exportId: string) {
    // Claimed atomically: requested, or in progress but stale (its run was interrupted), so two
    // runs (a pg-boss retry, a recovery sweep) never write the same export at once.
    const startedAt = new Date();
    const row = await claimExport(
      db,
      exportId,
      startedAt,
      new Date(startedAt.getTime() - EXPORT_STALE_AFTER_MS),
    );
    if (!row) return;
    const actor = { organisationId: row.organisationId, userId: row.createdById ?? '' };
    try {
      const { header, rows } = await exportRows(db, row.type, {
        organisationId: row.organisationId,
        startDate: row.startDate,
        endDate: row.endDate,
        userIds: row.userIds,
      });
      const csv = Buffer.from(stringify([header, ...rows], { delimiter: row.delimiter }), 'utf8');
      const type = IMPORT_TYPES.find((t) => t.code === row.type)!;
      await ctx.change(
        { organisationId: row.organisationId, userId: row.createdById },
        async (tx, record) => {
          const file = await files.storeFile(
            tx,
            actor,
            {
              entity: 'export',
              entityId: row.id,
              filename: `export-${type.name}-${startedAt.toISOString().slice(0, 10)}.csv`,
              mimeType: 'text/csv',
              content: csv,
            },
            record,
          );
          const stats: ExportStats = {
            rows: rows.length,
            startedAt: startedAt.toISOString(),
            finishedAt: new Date().toISOString(),
          };
          const done = await updateExport(tx, exportId, {
            status: IMPORT_STATUS.DONE,
            fileId: file.id,
            stats,
            updatedAt: new Date(),
          });
          await record({
            on: EXPORT_ENTITY,
            type: 'UPDATE',
            entityId: exportId,
            snapshot: presentExport(done),
          });
        },
      );
    } catch (error) {
      const attempts = row.attempts + 1;
      const last = attempts >= EXPORT_ATTEMPTS;
      await ctx.change(
        { organisationId: row.organisationId, userId: row.createdById },
        async (tx, record) => {
          const failed = await updateExport(tx, exportId, {
            attempts,
            status: last ? IMPORT_STATUS.CRASH : IMPORT_STATUS.REQUESTED,
            stats: { ...row.stats, reason: (error as Error).message },
            updatedAt: new Date(),
          });
          if (last) {
            await record({
              on: EXPORT_ENTITY,
              type: 'UPDATE',
              entityId: exportId,
              snapshot: presentExport(failed),
            });
          }
        },
      );
      if (!last) throw error;
      ctx.log.error({ err: error, exportId }, 'export crashed');
    }
  }

  return {
    run,

    async create(actor: Actor, input: CreateExportInput) {
      const type = importTypeOf(String(input.type));
      if (!type) {
        throw badRequest('Unknown export type', [
          {
            pointer: '/type',
            message: `must be one of: ${IMPORT_TYPES.map((t) => `${t.code} (${t.name})`).join(', ')}`,
            in: 'body',
          },
        ]);
      }
      const delimiter = input.delimiter === undefined ? ',' : delimiterOf(input.delimiter)?.value;
      if (!delimiter) {
        throw badRequest('Unknown delimiter', [
          { pointer: '/delimiter', message: 'must be , ; | or tab', in: 'body' },
        ]);
      }
      const startDate = dateOf(
        input.startDate ?? input.start_date,
        input.startDate !== undefined ? '/startDate' : '/start_date',
      );
      const endDate = dateOf(
        input.endDate ?? input.end_date,
        input.endDate !== undefined ? '/endDate' : '/end_date',
      );
      if (startDate && endDate && endDate < startDate) {
        throw badRequest('The end is before the start', [
          { pointer: '/end_date', message: 'must not be before start_date', in: 'body' },
        ]);
      }
      const userIds = [...new Set(input.userIds ?? input.user_ids ?? [])];
      if (userIds.length) {
        const known = new Set(await organisationUserIds(db, actor.organisationId, userIds));
        const unknown = userIds.findIndex((id) => !known.has(id));
        if (unknown >= 0) {
          throw new AppError('invalid_reference', 'A user of user_ids is not a user of the organisation', {
            issues: [
              { pointer: `/user_ids/${unknown}`, message: 'is not a user of the organisation', in: 'body' },
            ],
          });
        }
      }
      const row = await ctx.change(actor, async (tx, record) => {
        const created = await insertExport(tx, {
          organisationId: actor.organisationId,
          type: type.code,
          delimiter,
          startDate,
          endDate,
          userIds,
          stats: { rows: null, startedAt: null, finishedAt: null },
          createdById: actor.userId,
        });
        await record({
          on: EXPORT_ENTITY,
          type: 'CREATE',
          entityId: created.id,
          snapshot: presentExport(created),
        });
        return created;
      });
      await ctx.jobs.send<ExportJob>(EXPORT_JOB, { exportId: row.id }, { singletonKey: row.id });
      return presentExport(row);
    },

    async get(actor: Actor, id: string) {
      return presentExport(await find(actor, id));
    },

    async list(actor: Actor, query: ExportListQuery) {
      const page = query.page ?? 1;
      const limit = query.limit ?? 50;
      const statuses = (query.status ?? '')
        .split(',')
        .map((s) => Number(s.trim()))
        .filter((n) => Number.isInteger(n) && n > 0);
      const type = query.type ? (importTypeOf(query.type)?.code ?? query.type) : undefined;
      const start = dateOf(query.start, '/start', 'query');
      const end = dateOf(query.end, '/end', 'query');
      const [field = 'createdAt', dir = 'DESC'] = (query.sort ?? 'createdAt,DESC').split(',');
      const { rows, total: n } = await listExports(
        db,
        actor.organisationId,
        { statuses, type, start, end, s: query.s },
        { field: field === 'updatedAt' ? 'updatedAt' : 'createdAt', ascending: dir.toUpperCase() === 'ASC' },
        { limit, offset: (page - 1) * limit },
      );
      return {
        data: rows.map(presentExport),
        meta: { page, limit, total: n, pageCount: Math.ceil(n / limit) },
      };
    },

    async archive(actor: Actor, id: string) {
      const row = await find(actor, id);
      if (row.archivedAt) return presentExport(row);
      return ctx.change(actor, async (tx, record) => {
        const at = new Date();
        const archived = await updateExport(tx, id, { archivedAt: at, updatedAt: at });
        await record({ on: EXPORT_ENTITY, type: 'UPDATE', entityId: id, snapshot: presentExport(archived) });
        return presentExport(archived);
      });
    },

    async download(actor: Actor, id: string) {
      const row = await find(actor, id);
      if (row.status !== IMPORT_STATUS.DONE || !row.fileId) {
        throw new AppError(
          'export_not_ready',
          `The export is not done (status ${row.status}): poll GET /exports/${id}`,
        );
      }
      const file = await findFile(db, actor.organisationId, row.fileId);
      if (!file) throw notFound('File');
      const content = await readFileContent(db, row.fileId);
      if (!content) throw notFound('File');
      return { file, content };
    },
  };
}
