import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { companies } from '../../db/schema/platform.ts';
import { inList } from './bulk.ts';

/** Live companies of the organisation by external id, for the keys given. */
export async function companiesByExternalId(
  db: Executor,
  organisationId: string,
  keys: Iterable<string>,
): Promise<Map<string, string>> {
  const list = [...new Set(keys)];
  if (list.length === 0) return new Map();
  const rows = await db
    .select({ id: companies.id, externalId: companies.externalId })
    .from(companies)
    .where(
      and(
        eq(companies.organisationId, organisationId),
        isNull(companies.deletedAt),
        inList(companies.externalId, list),
      ),
    );
  return new Map(rows.map((r) => [r.externalId!, r.id]));
}

export const unknownCompany = (key: string) => `no company has the external id "${key}"`;
