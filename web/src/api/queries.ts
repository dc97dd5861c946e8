import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client.ts';

export type CatalogueEntry = {
  id: string;
  code: string;
  name: string;
  enabled: boolean;
  [key: string]: unknown;
};

type CatalogueKind = '/api/products' | '/api/product-categories' | '/api/material-references';

/** A catalogue collection (styles, categories, boards): read once per session. */
export function useCatalogue(path: CatalogueKind) {
  return useQuery({
    queryKey: ['catalogue', path],
    queryFn: async () => (await unwrap(api.GET(path))) as CatalogueEntry[],
    staleTime: 5 * 60_000,
  });
}

/** Companies matching a search, for pickers (server-side search, first 20). */
export function useCompanyOptions(search: string, selected?: { id: string; name: string } | null) {
  const query = useQuery({
    queryKey: ['companies', 'options', search],
    queryFn: () =>
      unwrap(
        api.GET('/api/companies/pagination', {
          params: { query: { search: search || undefined, limit: 20, page: 1 } },
        }),
      ),
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
    queryKey: ['projects', 'options', companyId],
    queryFn: () =>
      unwrap(
        api.GET('/api/projects/pagination', {
          params: { query: { companyId: companyId ?? undefined, limit: 100, page: 1 } },
        }),
      ),
    enabled: options.enabled ?? true,
  });
  return {
    options: (query.data?.data ?? []).map((p) => ({ value: p.id, label: p.name })),
    loading: query.isFetching,
  };
}

export function useStatusOptions(entity: string) {
  const query = useQuery({
    queryKey: ['statuses', entity],
    queryFn: () => unwrap(api.GET('/api/statuses/entity', { params: { query: { entity } as never } })),
    staleTime: 5 * 60_000,
  });
  return ((query.data ?? []) as { id: string; internalLabel?: string; name?: string }[]).map((s) => ({
    value: s.id,
    label: s.internalLabel ?? s.name ?? s.id,
  }));
}
