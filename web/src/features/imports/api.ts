import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, multipart, unwrap } from '../../api/client.ts';
import { byId, resourceKeys } from '../../api/keys.ts';
import type { components } from '../../api/schema.d.ts';
import type { Query } from '../../api/types.ts';

export type ImportRecord = components['schemas']['Import'];

/** 1 REQUESTED and 2 IN_PROGRESS: the import still runs (the screen polls it and offers cancel). */
export const isRunning = (status: number) => status === 1 || status === 2;
export const STATUS_NAMES: Record<number, string> = {
  1: 'REQUESTED',
  2: 'IN_PROGRESS',
  3: 'ABORTED',
  4: 'SENT',
  5: 'DONE',
  6: 'FAILED',
  7: 'CRASH',
};
export const statusColor = (status: number) =>
  ({ 1: 'gray.7', 2: 'blue.8', 3: 'orange.9', 4: 'teal.9', 5: 'teal.9', 6: 'red.8', 7: 'red.8' })[status] ??
  'gray.7';

/**
 * The i18n key of an import's status: a dry run that ended reads "Checked, nothing written" rather
 * than "Done, e-mailed" (issue 26: honest status words).
 */
export const statusKey = (record: Pick<ImportRecord, 'status' | 'dryRun'>) =>
  record.dryRun && (record.status === 4 || record.status === 5)
    ? 'imports.dryStatuses.CHECKED'
    : `imports.statuses.${STATUS_NAMES[record.status]}`;

/** A dry run that ended and whose file is kept: it can be run for real (POST /api/imports/{id}/run). */
export const canRunForReal = (record: ImportRecord) =>
  record.dryRun &&
  (record.status === 4 || record.status === 5) &&
  !record.fileArchived &&
  !record.stats.refused &&
  // Once run for real, the dry run links to its real run instead (the API refuses a second one).
  !record.realRunId;

/** How often a running import is read again for its progress. */
export const PROGRESS_POLL_MS = 1000;

export type ImportListQuery = Query<'/api/imports'>;

const importResource = resourceKeys<'imports', ImportListQuery>('imports');

/** The imports' query keys: `all` covers the list, each import and the fixed choices. */
export const importKeys = {
  ...importResource,
  types: () => [...importResource.all, 'types'] as const,
  delimiters: () => [...importResource.all, 'delimiters'] as const,
};

export const importQueries = {
  list: (query: ImportListQuery) =>
    queryOptions({
      queryKey: importKeys.list(query),
      queryFn: () => unwrap(api.GET('/api/imports', { params: { query } })),
    }),
  /** An import, read again every second while it runs so the progress bar follows it. */
  detail: (id: string) =>
    queryOptions({
      queryKey: importKeys.detail(id),
      queryFn: () => unwrap(api.GET('/api/imports/{id}', { params: { path: { id } } })),
      refetchInterval: (query) =>
        query.state.data && isRunning(query.state.data.status) ? PROGRESS_POLL_MS : false,
    }),
  types: () =>
    queryOptions({
      queryKey: importKeys.types(),
      queryFn: () => unwrap(api.GET('/api/imports/utils/get-types')),
      staleTime: Number.POSITIVE_INFINITY,
    }),
  delimiters: () =>
    queryOptions({
      queryKey: importKeys.delimiters(),
      queryFn: () => unwrap(api.GET('/api/imports/utils/get-delimiters')),
      staleTime: Number.POSITIVE_INFINITY,
    }),
};

export const useImportTypes = () => useQuery(importQueries.types());
export const useDelimiters = () => useQuery(importQueries.delimiters());
export const useImport = (id: string) => useQuery(importQueries.detail(id));

export type UploadOptions = { type: string; delimiter: string; dryRun: boolean; allowDelete: boolean };

/**
 * POST /api/imports as multipart/form-data, the fields before the file (the service reads the stream
 * in order). openapi-fetch passes a FormData body through as it is (the browser sets the boundary),
 * so the upload keeps the client's token refresh.
 */
export function uploadImport(file: File, options: UploadOptions): Promise<ImportRecord> {
  const { type, delimiter, dryRun, allowDelete } = options;
  return unwrap(
    api.POST(
      '/api/imports',
      multipart({ type, delimiter, dryRun, allowDelete, csv: file.name }, { field: 'csv', file }),
    ),
  ) as Promise<ImportRecord>;
}

/** A dry run's real run, a running import's cancellation, and its file's archiving. */
export const importApi = {
  run: (id: string) => unwrap(api.POST('/api/imports/{id}/run', byId(id))),
  cancel: (id: string) => unwrap(api.POST('/api/imports/{id}/cancel', byId(id))),
  archive: (id: string) => unwrap(api.PATCH('/api/imports/{id}/archive', byId(id))),
};
