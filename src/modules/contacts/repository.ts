import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { companyUsers, users } from '../../db/schema/platform.ts';
import type { Actor } from '../../platform/actor.ts';
import type { CrudFields, CrudQuery } from '../../platform/crud-query.ts';
import { searchPeople, userVisibility, userWithCompaniesColumns } from '../users/repository.ts';

/** The fields the crud grammar (`s`, `filter`, `or`, `sort`) may name in a contact search. */
export const CONTACT_CRUD_FIELDS: CrudFields = {
  id: { column: users.id, type: 'uuid' },
  email: { column: users.email, type: 'string' },
  externalId: { column: users.externalId, type: 'string' },
  firstName: { column: users.firstName, type: 'string' },
  lastName: { column: users.lastName, type: 'string' },
  phoneNumber: { column: users.phoneNumber, type: 'string' },
  mobilePhone: { column: users.mobilePhone, type: 'string' },
  jobTitle: { column: users.jobTitle, type: 'string' },
  job: { column: users.jobTitle, type: 'string' },
  name: {
    column: sql`(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, ''))`,
    type: 'string',
  },
  language: { column: users.language, type: 'string' },
  username: { column: users.username, type: 'string' },
  createdAt: { column: users.createdAt, type: 'date' },
  updatedAt: { column: users.updatedAt, type: 'date' },
};

/** Live contacts of the actor's organisation that the actor may see. */
export function visibleContacts(actor: Actor): SQL {
  return and(
    eq(users.organisationId, actor.organisationId),
    eq(users.role, 'contact'),
    isNull(users.deletedAt),
    userVisibility(actor),
  )!;
}

export async function contactsOfCompany(db: Executor, actor: Actor, companyId: string) {
  return db
    .select(userWithCompaniesColumns)
    .from(users)
    .where(
      and(
        visibleContacts(actor),
        sql`exists (select 1 from company_users cu where cu.user_id = ${users.id} and cu.company_id = ${companyId})`,
      ),
    )
    .orderBy(users.lastName, users.firstName, users.id)
    .limit(1000);
}

export async function removeCompanyLink(db: Executor, userId: string, companyId: string) {
  const removed = await db
    .delete(companyUsers)
    .where(and(eq(companyUsers.userId, userId), eq(companyUsers.companyId, companyId)))
    .returning({ companyId: companyUsers.companyId });
  return removed.length > 0;
}

/** A crud search of the contacts the actor may see; the total only when a page was asked. */
export function searchVisibleContacts(db: Executor, actor: Actor, crud: CrudQuery) {
  return searchPeople(db, and(visibleContacts(actor), crud.where), crud);
}
