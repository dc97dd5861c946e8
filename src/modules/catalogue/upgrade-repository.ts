/** The statements of the catalogue's version upgrades (upgrade.ts). */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.ts';
import { catalogueEntries, catalogueVersions } from '../../db/schema/catalogue.ts';
import { type CatalogueRow, entryColumns } from './repository.ts';

/** The organisation's live entries (deleted ones are not brought back by an upgrade). */
export function liveEntriesOf(tx: Executor, organisationId: string) {
  return tx
    .select(entryColumns)
    .from(catalogueEntries)
    .where(and(eq(catalogueEntries.organisationId, organisationId), isNull(catalogueEntries.deletedAt)));
}

export async function setEntryNameAndData(
  tx: Executor,
  id: string,
  values: Pick<CatalogueRow, 'name' | 'data'>,
) {
  const [updated] = await tx
    .update(catalogueEntries)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(catalogueEntries.id, id))
    .returning(entryColumns);
  return updated!;
}

export async function insertEntry(tx: Executor, values: typeof catalogueEntries.$inferInsert) {
  const [stored] = await tx.insert(catalogueEntries).values(values).returning();
  return stored!;
}

/**
 * Serialises the upgrades of one organisation until the transaction ends (a transaction-scoped
 * advisory lock), and answers its catalogue's version read under it (undefined when never stored).
 */
export async function lockCatalogueVersion(
  tx: Executor,
  organisationId: string,
): Promise<number | undefined> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`catalogue-upgrade:${organisationId}`}))`);
  const [current] = await tx
    .select({ version: catalogueVersions.version })
    .from(catalogueVersions)
    .where(eq(catalogueVersions.organisationId, organisationId));
  return current?.version;
}

export async function storeCatalogueVersion(tx: Executor, organisationId: string, version: number) {
  await tx
    .insert(catalogueVersions)
    .values({ organisationId, version })
    .onConflictDoUpdate({
      target: catalogueVersions.organisationId,
      set: { version, upgradedAt: new Date() },
    });
}

/** The organisations with a catalogue (settings entry) stored at a version below `current`. */
export async function organisationsBehind(
  db: Executor,
  settingsKind: string,
  firstVersion: number,
  current: number,
): Promise<string[]> {
  const behind = await db.execute<{ organisation_id: string }>(sql`
    select distinct e.organisation_id from catalogue_entries e
    left join catalogue_versions v on v.organisation_id = e.organisation_id
    where e.kind = ${settingsKind} and e.deleted_at is null
      and coalesce(v.version, ${firstVersion}) < ${current}`);
  return rowsOf<{ organisation_id: string }>(behind).map((row) => row.organisation_id);
}
