/**
 * The SQL of the contact import (contacts.ts): the batch's lookups, its bulk writes (users and
 * their company links) and the archiving of the contacts an import with allowDelete did not name.
 */
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { companyUsers, users } from '../../db/schema/platform.ts';
import { userWithCompaniesColumns } from '../users/repository.ts';
import { archiveAbsentRows, bulkInsert, bulkUpdate, countAbsentRows, inList } from './bulk-repository.ts';
import type { ImportScope } from './write-repository.ts';

const contactColumns = {
  ...userWithCompaniesColumns,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
};

const selectUsers = (tx: Tx) => tx.select(contactColumns).from(users);
export type ContactRow = Awaited<ReturnType<typeof selectUsers>>[number];

/** Live users of the organisation with one of the external ids or (lower-cased) e-mails. */
export async function findContactsByKey(
  tx: Tx,
  organisationId: string,
  externalIds: string[],
  emails: string[],
) {
  return selectUsers(tx).where(
    and(
      eq(users.organisationId, organisationId),
      isNull(users.deletedAt),
      or(inList(users.externalId, externalIds), inList(sql`lower(${users.email})`, emails)),
    ),
  );
}

/** Live users of any organisation whose username is one of the (lower-cased) e-mails. */
export async function findUsernameOwners(tx: Tx, emails: string[]) {
  return tx
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(isNull(users.deletedAt), inList(sql`lower(${users.username})`, emails)));
}

/** Users with their companies, by id (the caller wrote them in its organisation). */
export const findUsersWithCompanies = (tx: Tx, ids: string[]) =>
  tx.select(userWithCompaniesColumns).from(users).where(inList(users.id, ids));

/** Inserts the new contacts, 2,000 a statement. */
export async function insertContacts(tx: Tx, creates: Array<typeof users.$inferInsert>): Promise<void> {
  for (let start = 0; start < creates.length; start += 2000) {
    await bulkInsert(tx, users, creates.slice(start, start + 2000));
  }
}

/** Sets `fields` of the changed contacts, in one statement. */
export const updateContacts = (
  tx: Tx,
  organisationId: string,
  fields: string[],
  rows: Array<Record<string, unknown> & { id: string }>,
) => bulkUpdate(tx, users, organisationId, fields, rows);

/** Marks users changed (their company links changed). */
export async function touchUsers(tx: Tx, ids: string[]): Promise<void> {
  await tx.update(users).set({ updatedAt: new Date() }).where(inList(users.id, ids));
}

/** Removes the company links, in one statement. */
export async function removeCompanyLinks(
  tx: Tx,
  links: Array<{ user_id: string; company_id: string }>,
): Promise<void> {
  await tx.execute(sql`delete from company_users cu
    using jsonb_to_recordset(${JSON.stringify(links)}::jsonb) as v(user_id uuid, company_id uuid)
    where cu.user_id = v.user_id and cu.company_id = v.company_id`);
}

/** Adds the company links (those already there are kept), 5,000 a statement. */
export async function addCompanyLinks(
  tx: Tx,
  organisationId: string,
  links: Array<{ userId: string; companyId: string }>,
): Promise<void> {
  for (let start = 0; start < links.length; start += 5000) {
    await tx
      .insert(companyUsers)
      .values(links.slice(start, start + 5000).map((l) => ({ ...l, organisationId })))
      .onConflictDoNothing();
  }
}

/** The live contacts with a key that the file names by neither key. */
const absentContacts = (c: ImportScope) => sql`
  select u.id from users u
   where u.organisation_id = ${c.organisationId} and u.role = 'contact' and u.deleted_at is null
     and (u.external_id is not null or u.email is not null)
     and not exists (select 1 from import_keys k where k.import_id = ${c.importId} and k.key = 'x:' || u.external_id)
     and not exists (select 1 from import_keys k where k.import_id = ${c.importId} and k.key = 'e:' || lower(u.email))`;

/** Archives at most `limit` absent contacts; answers their ids. */
export const archiveAbsentContacts = (tx: Tx, c: ImportScope, limit: number) =>
  archiveAbsentRows(tx, users, absentContacts(c), limit);

export const countAbsentContacts = (tx: Tx, c: ImportScope) => countAbsentRows(tx, absentContacts(c));
