/**
 * The query keys of a resource, the shape every feature's key factory starts from: `all` (every
 * read of the resource), its lists and a list by its query, and one record's detail, under which
 * the feature puts the record's own reads, so invalidating a detail reads them again too.
 */
export function resourceKeys<const Name extends string, ListQuery>(name: Name) {
  const all = [name] as const;
  return {
    all,
    lists: () => [...all, 'list'] as const,
    list: (query: ListQuery) => [...all, 'list', query] as const,
    detail: (id: string) => [...all, 'detail', id] as const,
  };
}

/** The path parameters of an operation on one record (`/api/quotes/{id}`). */
export const byId = (id: string) => ({ params: { path: { id } } });
