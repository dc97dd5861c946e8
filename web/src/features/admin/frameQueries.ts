import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';

/**
 * The two administration reads every signed-in page makes (the navigation asks the role matrix,
 * the portal's header the brand), apart from api.ts: `adminQueries` is one object, which a bundler
 * keeps whole, so importing it from the frame carried the whole administration API to every page
 * (issue 31). api.ts re-exports them under `adminQueries` with the same keys.
 */
export const rolesQuery = () =>
  queryOptions({
    queryKey: ['roles'] as const,
    queryFn: () => unwrap(api.GET('/api/roles')),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The seller's brand (name, logo, colours) that the portal and guest pages show. */
export const brandQuery = () =>
  queryOptions({
    queryKey: ['organisation', 'brand'] as const,
    queryFn: () => unwrap(api.GET('/api/organisation/brand')),
    staleTime: 5 * 60_000,
  });
