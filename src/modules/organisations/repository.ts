import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { addresses, files } from '../../db/schema/organisation-data.ts';
import { organisationSettings } from '../../db/schema/organisation-settings.ts';
import { companies, organisations, users } from '../../db/schema/platform.ts';
import { userColumns } from '../../platform/auth.ts';
import { entity } from '../../platform/events.ts';
import type { CustomerVat } from './vat.ts';

export type { SellerAddress } from '../../db/schema/organisation-settings.ts';

export const ORGANISATION_SETTINGS_ENTITY = entity('ORGANISATION_SETTINGS', 'organisation_settings');

export type SettingsRow = typeof organisationSettings.$inferSelect;
export type SettingsValues = Omit<
  typeof organisationSettings.$inferInsert,
  'organisationId' | 'createdAt' | 'updatedAt'
>;

/** The organisation's name and its settings row (undefined until first saved), optionally locked. */
export async function findSettings(db: Executor, organisationId: string, lock = false) {
  const query = db
    .select({ name: organisations.name, settings: organisationSettings })
    .from(organisations)
    .leftJoin(organisationSettings, eq(organisationSettings.organisationId, organisations.id))
    .where(and(eq(organisations.id, organisationId), isNull(organisations.deletedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: organisations }) : await query;
  return row;
}

/** Creates or updates the settings row of the organisation; answers it. */
export async function saveSettings(
  tx: Executor,
  organisationId: string,
  values: SettingsValues,
): Promise<SettingsRow> {
  const now = new Date();
  const [row] = await tx
    .insert(organisationSettings)
    .values({ ...values, organisationId, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: organisationSettings.organisationId, set: { ...values, updatedAt: now } })
    .returning();
  return row!;
}

/** Metadata of a live file of the organisation. */
export async function findLogoFile(db: Executor, organisationId: string, fileId: string) {
  const [row] = await db
    .select({
      id: files.id,
      filename: files.filename,
      mimeType: files.mimeType,
      size: files.size,
      sha256: files.sha256,
    })
    .from(files)
    .where(
      and(
        eq(files.id, fileId),
        eq(files.organisationId, organisationId),
        eq(files.entity, 'organisation'),
        isNull(files.deletedAt),
      ),
    )
    .limit(1);
  return row;
}

/**
 * What decides a customer's VAT: the company's VAT number and exemption, and its country (the
 * given address's, else the company's default billing address, else its first live address).
 */
export async function customerVatOf(
  db: Executor,
  organisationId: string,
  companyId: string,
  addressId: string | null,
): Promise<CustomerVat> {
  const [company] = await db
    .select({
      vatNumber: companies.vatNumber,
      vatExempt: companies.vatExempt,
      vatExemptionReason: companies.vatExemptionReason,
    })
    .from(companies)
    .where(and(eq(companies.id, companyId), eq(companies.organisationId, organisationId)))
    .limit(1);
  const chosen = addressId
    ? await db
        .select({ countryCode: addresses.countryCode })
        .from(addresses)
        .where(and(eq(addresses.id, addressId), eq(addresses.organisationId, organisationId)))
        .limit(1)
    : [];
  const [fallback] = chosen.length
    ? chosen
    : await db
        .select({ countryCode: addresses.countryCode })
        .from(addresses)
        .where(
          and(
            eq(addresses.companyId, companyId),
            eq(addresses.organisationId, organisationId),
            isNull(addresses.deletedAt),
          ),
        )
        .orderBy(
          desc(sql`${addresses.type} = 'billing'`),
          desc(addresses.isDefault),
          asc(addresses.position),
          asc(addresses.createdAt),
        )
        .limit(1);
  return {
    country: fallback?.countryCode?.toUpperCase() ?? null,
    vatNumber: company?.vatNumber ?? null,
    vatExempt: company?.vatExempt ?? false,
    vatExemptionReason: company?.vatExemptionReason ?? null,
  };
}

/** Whether a live user of any organisation signs in with this username (compared lower-case). */
export async function usernameTaken(db: Executor, username: string) {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()} and ${users.deletedAt} is null`)
    .limit(1);
  return Boolean(taken);
}

export async function insertOrganisation(db: Executor, name: string) {
  const [organisation] = await db.insert(organisations).values({ name }).returning();
  return organisation!;
}

/** Inserts a user; returns the whole user (no secret), as GET /users/{id} shows it. */
export async function insertUserReturningColumns(db: Executor, values: typeof users.$inferInsert) {
  const [user] = await db.insert(users).values(values).returning(userColumns);
  return user!;
}

/** How many users exist, in every organisation, archived ones included. */
export async function countAllUsers(db: Executor) {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  return row?.count ?? 0;
}

/** Serialises the first start of several nodes on a new database (until the transaction ends). */
export async function lockBootstrap(db: Executor) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('organisations.bootstrap'))`);
}
