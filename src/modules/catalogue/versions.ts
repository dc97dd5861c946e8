import type { Catalogue } from '../../pricing/index.ts';
import v1 from './defaults/v1.json' with { type: 'json' };
import v2 from './defaults/v2.json' with { type: 'json' };
import v3 from './defaults/v3.json' with { type: 'json' };
import v4 from './defaults/v4.json' with { type: 'json' };
import v5 from './defaults/v5.json' with { type: 'json' };

/**
 * Every released default catalogue, frozen as JSON (records by code, as `defaultCatalogue()` returns
 * them). The upgrade compares an organisation's stored value with the version it was seeded from to
 * tell an untouched default (take the new one) from an estimator's edit (keep it).
 *
 * Changing src/pricing/default-catalogue.ts means releasing a new version: add `vN.json` (the output
 * of `defaultCatalogue()`) here; a test fails while the latest snapshot differs from the defaults.
 */
const SNAPSHOTS: Record<number, unknown> = { 1: v1, 2: v2, 3: v3, 4: v4, 5: v5 };

export const CATALOGUE_VERSION = Math.max(...Object.keys(SNAPSHOTS).map(Number));

/** The version an organisation without a recorded version was seeded from. */
export const FIRST_VERSION = 1;

export function catalogueOfVersion(version: number): Catalogue {
  const snapshot = SNAPSHOTS[version];
  if (!snapshot) throw new Error(`No default catalogue of version ${version}`);
  return structuredClone(snapshot) as Catalogue;
}
