import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import { companyKeys } from '../companies/api.ts';

/**
 * Names of the companies a page of rows refers to (order and article lists carry only ids): one
 * crud search `filter=id||$in||...` for the page, never the whole list.
 */
export function useCompanyNames(ids: (string | null | undefined)[]) {
  const unique = [...new Set(ids.filter((id): id is string => !!id))].sort();
  const query = useQuery({
    queryKey: companyKeys.names(unique),
    queryFn: async () => {
      const list = await unwrap(
        api.GET('/api/companies', {
          params: { query: { filter: [`id||$in||${unique.join(',')}`], limit: unique.length } },
        }),
      );
      return new Map((list as unknown as { id: string; name: string }[]).map((c) => [c.id, c.name]));
    },
    enabled: unique.length > 0,
    staleTime: 60_000,
  });
  return (id: string | null | undefined) => (id ? (query.data?.get(id) ?? '…') : '—');
}
