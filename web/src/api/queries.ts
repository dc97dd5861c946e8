import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { companyQueries } from '../features/companies/api.ts';
import { statusLabel } from '../features/orders/statuses.tsx';
import { api, unwrap } from './client.ts';
import type { Query } from './types.ts';

type StatusEntity = Query<'/api/statuses/entity'>['entity'];

export type CatalogueEntry = {
  id: string;
  code: string;
  name: string;
  enabled: boolean;
  [key: string]: unknown;
};

type CatalogueKind =
  | '/api/products'
  | '/api/product-categories'
  | '/api/material-references'
  | '/api/machines'
  | '/api/operations';

/** A catalogue record's name in a language (its `names`), else its own name. */
export const catalogueName = (entry: { name: string; names?: unknown }, language: string) => {
  const names = (entry.names ?? {}) as Record<string, string | undefined>;
  return names[language.slice(0, 2)]?.trim() || entry.name;
};

/**
 * The shared reads of many screens: catalogue collections and statuses. Their keys: `catalogue`
 * (what the admin's catalogue edits invalidate) and `statuses` (per entity).
 */
export const catalogueKeys = {
  all: ['catalogue'] as const,
  kind: (path: CatalogueKind) => [...catalogueKeys.all, path] as const,
};
export const statusKeys = {
  all: ['statuses'] as const,
  entity: (entity: StatusEntity) => [...statusKeys.all, entity] as const,
};

export const sharedQueries = {
  /** A catalogue collection, read once per session. */
  catalogue: (path: CatalogueKind) =>
    queryOptions({
      queryKey: catalogueKeys.kind(path),
      queryFn: async () => (await unwrap(api.GET(path))) as CatalogueEntry[],
      staleTime: 5 * 60_000,
    }),
  /** The statuses of an entity (order, quote, brief, ...), read once per session. */
  statuses: (entity: StatusEntity) =>
    queryOptions({
      queryKey: statusKeys.entity(entity),
      queryFn: () => unwrap(api.GET('/api/statuses/entity', { params: { query: { entity } } })),
      staleTime: 5 * 60_000,
    }),
};

/** A catalogue collection (styles, categories, boards): read once per session, named in the user's language. */
export function useCatalogue(path: CatalogueKind) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useQuery({
    ...sharedQueries.catalogue(path),
    select: (entries) => entries.map((entry) => ({ ...entry, name: catalogueName(entry, language) })),
  });
}

/** A record of the engine's output named by its catalogue code (an operation, a machine). */
type Coded = { code: string; name: string };

/**
 * The names of the engine's operations and machines in the user's language: the catalogue's name
 * in that language (catalogue_entries.names, which an admin edits and the quote PDF prints), else
 * the app's words for the code (`engine.operations.<code>`), else the engine's own name.
 */
export function useEngineNames() {
  const { t, i18n } = useTranslation();
  const language = i18n.language.slice(0, 2);
  const operations = useQuery(sharedQueries.catalogue('/api/operations'));
  const machines = useQuery(sharedQueries.catalogue('/api/machines'));
  const own = (entries: CatalogueEntry[] | undefined, record: Coded) => {
    const names = entries?.find((e) => e.code === record.code)?.names as Record<string, string> | undefined;
    return names?.[language]?.trim() || undefined;
  };
  return {
    operationName: (operation: Coded) =>
      own(operations.data, operation) ??
      t(`engine.operations.${operation.code}`, { defaultValue: operation.name }),
    machineName: (machine: Coded) =>
      own(machines.data, machine) ?? t(`engine.machines.${machine.code}`, { defaultValue: machine.name }),
  };
}

/** Companies matching a search, for pickers (server-side search, first 20). */
export function useCompanyOptions(search: string, selected?: { id: string; name: string } | null) {
  const query = useQuery({
    ...companyQueries.list({ search: search || undefined, limit: 20, page: 1 }),
    placeholderData: (previous) => previous,
  });
  const options = (query.data?.data ?? []).map((c) => ({ value: c.id, label: c.name }));
  if (selected && !options.some((o) => o.value === selected.id))
    options.unshift({ value: selected.id, label: selected.name });
  return { options, loading: query.isFetching };
}

/** Projects of a company (or all), for filters and pickers. */
export function useProjectOptions(companyId: string | null | undefined) {
  return useProjects(companyId).options;
}

/** Projects of a company (first 100, by name), with the loading state, for the brief's project picker. */
export function useProjects(companyId: string | null | undefined, options: { enabled?: boolean } = {}) {
  const query = useQuery({
    ...companyQueries.projects({ companyId: companyId ?? undefined, limit: 100, page: 1 }),
    enabled: options.enabled ?? true,
  });
  return {
    options: (query.data?.data ?? []).map((p) => ({ value: p.id, label: p.name })),
    loading: query.isFetching,
  };
}

export function useStatusOptions(entity: StatusEntity) {
  const query = useQuery(sharedQueries.statuses(entity));
  return (query.data ?? []).map((s) => ({
    value: s.id,
    // A default status (seeded in English) in the user's language; the organisation's own as written.
    label: s.internalLabel ? statusLabel(s.internalLabel) : s.id,
  }));
}
