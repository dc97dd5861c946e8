import { useQuery } from '@tanstack/react-query';
import { companyQueries } from '../companies/api.ts';

/**
 * Names of the companies a page of rows refers to (order and article lists carry only ids): one
 * crud search `filter=id||$in||...` for the page, never the whole list.
 */
export function useCompanyNames(ids: (string | null | undefined)[]) {
  const unique = [...new Set(ids.filter((id): id is string => !!id))].sort();
  const query = useQuery({ ...companyQueries.names(unique), enabled: unique.length > 0 });
  return (id: string | null | undefined) => (id ? (query.data?.get(id) ?? '…') : '—');
}
