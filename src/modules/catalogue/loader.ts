import type { Executor } from '../../db/client.ts';
import type { Catalogue } from '../../pricing/index.ts';
import {
  type CatalogueNames,
  catalogueFingerprint,
  listEntries,
  namesOf,
  toCatalogue,
} from './repository.ts';

type Cached = { fingerprint: string; catalogue: Catalogue; names: CatalogueNames };
const cache = new Map<string, Cached>();

/**
 * The organisation's catalogue as the pricing engine takes it. Kept in memory and reused while the
 * stored entries are unchanged: a cheap fingerprint query (latest update and count) tells, so an
 * edit made by any node is priced with at once.
 */
export async function loadCatalogue(db: Executor, organisationId: string): Promise<Catalogue> {
  return (await loadCached(db, organisationId)).catalogue;
}

export type CatalogueWithNames = { catalogue: Catalogue; names: CatalogueNames };

/** The catalogue and its records' names per language (catalogueNameIn), cached alike. */
export async function loadCatalogueWithNames(
  db: Executor,
  organisationId: string,
): Promise<CatalogueWithNames> {
  const { catalogue, names } = await loadCached(db, organisationId);
  return { catalogue, names };
}

async function loadCached(db: Executor, organisationId: string): Promise<Cached> {
  const fingerprint = await catalogueFingerprint(db, organisationId);
  const cached = cache.get(organisationId);
  if (cached && cached.fingerprint === fingerprint) return cached;
  const rows = await listEntries(db, organisationId);
  const fresh = { fingerprint, catalogue: toCatalogue(rows), names: namesOf(rows) };
  cache.set(organisationId, fresh);
  return fresh;
}
