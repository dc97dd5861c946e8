import type { Executor } from '../../db/client.ts';
import type { Catalogue } from '../../pricing/index.ts';
import { catalogueFingerprint, listEntries, toCatalogue } from './repository.ts';

type Cached = { fingerprint: string; catalogue: Catalogue };
const cache = new Map<string, Cached>();

/**
 * The organisation's catalogue as the pricing engine takes it. Kept in memory and reused while the
 * stored entries are unchanged: a cheap fingerprint query (latest update and count) tells, so an
 * edit made by any node is priced with at once.
 */
export async function loadCatalogue(db: Executor, organisationId: string): Promise<Catalogue> {
  const fingerprint = await catalogueFingerprint(db, organisationId);
  const cached = cache.get(organisationId);
  if (cached && cached.fingerprint === fingerprint) return cached.catalogue;
  const catalogue = toCatalogue(await listEntries(db, organisationId));
  cache.set(organisationId, { fingerprint, catalogue });
  return catalogue;
}
