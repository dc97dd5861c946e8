import {
  and,
  asc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  ne,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { companies, companyUsers, ROLES, type Role, users } from '../../db/schema/platform.ts';
import { type Actor, companyScope, inCompanyScope } from '../../platform/actor.ts';
import { userColumns } from '../../platform/auth.ts';
import type { CrudFields, CrudQuery } from '../../platform/crud-query.ts';
import { AppError, type ProblemIssue } from '../../platform/errors.ts';
import { entity } from '../../platform/events.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import { ContactSchema } from '../contacts/schemas.ts';
import { UserSchemaWithAliases } from './schemas.ts';

export { ROLES, type Role };

/** A user's event: the GET answer (presentUser, the full `companyIds`). */
const presentUserRow = (row: Record<string, unknown>) =>
  presentUser({ companyIds: [], ...row } as unknown as UserWithCompanies) as Record<string, unknown>;

export const USER_ENTITY = entity('USER', 'users', 'users', {
  schema: UserSchemaWithAliases,
  present: presentUserRow,
});
/** Contacts are users with role `contact`; their events are named `event.contacts.*`. */
export const CONTACT_ENTITY = entity('CONTACT', 'contacts', 'users', {
  schema: ContactSchema,
  present: presentUserRow,
});

export const entityOfRole = (role: Role) => (role === 'contact' ? CONTACT_ENTITY : USER_ENTITY);

/**
 * The live companies a user is linked to, oldest link first. The outer column is written out:
 * drizzle renders `${users.id}` unqualified in a select list, where it would mean `c.id`.
 */
export const linkedCompanyIds = sql<
  string[]
>`coalesce((select array_agg(cu.company_id order by cu.created_at, cu.company_id)
  from company_users cu join companies c on c.id = cu.company_id and c.deleted_at is null
  where cu.user_id = "users"."id"), '{}')`.mapWith((value: unknown) => (Array.isArray(value) ? value : []));

export const userWithCompaniesColumns = { ...userColumns, companyIds: linkedCompanyIds };

export type UserRow = Awaited<ReturnType<typeof findUser>> & {};
export type UserWithCompanies = UserRow & { companyIds: string[] };

export async function findUser(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select(userColumns)
    .from(users)
    .where(and(eq(users.id, id), eq(users.organisationId, organisationId), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

/**
 * Rows a company-scoped actor may see: itself, and users linked to one of its companies.
 * Undefined for actors who see every user of their organisation.
 */
export function userVisibility(actor: Actor): SQL | undefined {
  const scope = companyScope(actor);
  if (!scope) return undefined;
  if (scope.length === 0) return eq(users.id, actor.userId);
  return or(
    eq(users.id, actor.userId),
    sql`exists (select 1 from company_users cu where cu.user_id = ${users.id} and cu.company_id in (${sql.join(
      scope.map((id) => sql`${id}`),
      sql`, `,
    )}))`,
  );
}

/** A scoped actor sees only the links to its own companies; others see them all. */
export function visibleCompanyIds(actor: Actor, companyIds: string[]): string[] {
  const scope = companyScope(actor);
  return scope ? companyIds.filter((id) => scope.includes(id)) : companyIds;
}

/** One user of the organisation with its linked companies, optionally archived ones only. */
export async function findUserWithCompanies(
  db: Executor,
  actor: Actor,
  id: string,
  options: { archived?: boolean; role?: Role; anyScope?: boolean } = {},
): Promise<UserWithCompanies | undefined> {
  const [row] = await db
    .select(userWithCompaniesColumns)
    .from(users)
    .where(
      and(
        eq(users.id, id),
        eq(users.organisationId, actor.organisationId),
        options.archived ? sql`${users.deletedAt} is not null` : isNull(users.deletedAt),
        options.role ? eq(users.role, options.role) : undefined,
        options.anyScope ? undefined : userVisibility(actor),
      ),
    )
    .limit(1);
  return row;
}

/**
 * A user as the API shows it: `companyIds` limited to the reader's scope, and for contacts the
 * same list as `collaborationIds`. Without an actor (event snapshots) the full lists are kept.
 */
export function presentUser<U extends UserWithCompanies>(user: U, actor?: Actor) {
  const companyIds = actor ? visibleCompanyIds(actor, user.companyIds) : user.companyIds;
  return user.role === 'contact'
    ? { ...user, companyIds, collaborationIds: companyIds }
    : { ...user, companyIds, collaborationIds: undefined };
}

/** The user columns alone, to compare two versions of a row (links are relations, not columns). */
export function userColumnValues(user: UserWithCompanies): Record<string, unknown> {
  const { companyIds: _companyIds, ...columns } = user;
  return columns;
}

/** The sign-in state of a user, for services that need it (never shown). */
export async function credentialsOf(db: Executor, id: string) {
  const [row] = await db
    .select({ username: users.username, hasPassword: sql<boolean>`${users.passwordHash} is not null` })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

/**
 * Refuses values that another live user already holds: the username across the service, the
 * e-mail (case-insensitively) and the external id within the organisation.
 */
export async function assertUserUnique(
  db: Executor,
  organisationId: string,
  values: { username?: string | null; email?: string | null; externalId?: string | null },
  exceptId?: string,
) {
  const notSelf = exceptId ? ne(users.id, exceptId) : undefined;
  const taken = async (condition: SQL) => {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(condition, isNull(users.deletedAt), notSelf))
      .limit(1);
    return Boolean(row);
  };
  if (values.username && (await taken(sql`lower(${users.username}) = ${values.username.toLowerCase()}`))) {
    throw new AppError('username_taken', 'A user with this username (e-mail) already exists');
  }
  if (
    values.email &&
    (await taken(
      and(
        eq(users.organisationId, organisationId),
        sql`lower(${users.email}) = ${values.email.toLowerCase()}`,
      )!,
    ))
  ) {
    throw new AppError('email_taken', 'A user with this e-mail already exists in the organisation');
  }
  if (
    values.externalId &&
    (await taken(and(eq(users.organisationId, organisationId), eq(users.externalId, values.externalId))!))
  ) {
    throw new AppError('external_id_taken', 'A user with this externalId already exists in the organisation');
  }
}

/** Live admins and superadmins of the organisation other than `exceptId`: the last one may not be demoted or archived. */
export async function countOtherAdmins(db: Executor, organisationId: string, exceptId: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(
      and(
        eq(users.organisationId, organisationId),
        inArray(users.role, ['admin', 'superadmin']),
        isNull(users.deletedAt),
        ne(users.id, exceptId),
      ),
    );
  return row?.count ?? 0;
}

/**
 * Checks that every id is a live company of the organisation that the actor may link to.
 * A scoped actor may only link its own companies (403); unknown ids answer 422. Both with pointers.
 */
export async function assertLinkableCompanies(
  db: Executor,
  actor: Actor,
  companyIds: string[],
  pointer: string,
) {
  if (companyIds.length === 0) return;
  const scope = companyScope(actor);
  if (scope) {
    const foreign = companyIds.findIndex((id) => !scope.includes(id));
    if (foreign >= 0) {
      // Like assertCompanyWritable (403), with a pointer to the entry.
      throw new AppError('forbidden', 'You may only link the companies you are linked to', {
        issues: [{ pointer: `${pointer}/${foreign}`, message: 'is not one of your companies', in: 'body' }],
      });
    }
  }
  const rows = await db
    .select({ id: companies.id })
    .from(companies)
    .where(
      and(
        eq(companies.organisationId, actor.organisationId),
        isNull(companies.deletedAt),
        inArray(companies.id, companyIds),
      ),
    );
  const found = new Set(rows.map((r) => r.id));
  const issues: ProblemIssue[] = companyIds
    .map((id, i) => ({ id, i }))
    .filter(({ id }) => !found.has(id))
    .map(({ i }) => ({
      pointer: `${pointer}/${i}`,
      message: 'is not a company of the organisation',
      in: 'body',
    }));
  if (issues.length) throw new AppError('unknown_company', 'Some linked companies do not exist', { issues });
}

/**
 * Replaces the user's links to live companies by `companyIds`. A scoped actor only replaces the
 * links it can see: links to companies outside its scope are kept. Returns whether anything changed.
 */
export async function replaceCompanyLinks(
  db: Executor,
  actor: Actor,
  userId: string,
  companyIds: string[],
): Promise<boolean> {
  const liveCompanies = db
    .select({ id: companies.id })
    .from(companies)
    .where(
      and(
        eq(companies.organisationId, actor.organisationId),
        isNull(companies.deletedAt),
        inCompanyScope(actor, companies.id),
      ),
    );
  const removed = await db
    .delete(companyUsers)
    .where(
      and(
        eq(companyUsers.userId, userId),
        inArray(companyUsers.companyId, liveCompanies),
        companyIds.length ? notInArray(companyUsers.companyId, companyIds) : undefined,
      ),
    )
    .returning({ companyId: companyUsers.companyId });
  const added = await addCompanyLinks(db, actor.organisationId, userId, companyIds);
  return removed.length > 0 || added > 0;
}

/** Links the user to the companies (existing links are kept); returns how many links were added. */
export async function addCompanyLinks(
  db: Executor,
  organisationId: string,
  userId: string,
  companyIds: string[],
): Promise<number> {
  if (companyIds.length === 0) return 0;
  const inserted = await db
    .insert(companyUsers)
    .values(companyIds.map((companyId) => ({ companyId, userId, organisationId })))
    .onConflictDoNothing()
    .returning({ companyId: companyUsers.companyId });
  return inserted.length;
}

export const USER_PAGE = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: {
    createdAt: users.createdAt,
    updatedAt: users.updatedAt,
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
    role: users.role,
    lastSignInAt: users.lastSignInAt,
    /** HIPE's sorts: the full name, and the archived state. */
    name: sql`lower(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, ''))`,
    status: users.deletedAt,
  },
  tieBreaker: users.id,
  defaultSort: { field: 'createdAt', direction: 'DESC' as const },
};

/** The crud field a user search adds to the contact fields. */
export const USER_ROLE_CRUD_FIELD: CrudFields[string] = { column: users.role, type: 'string' };

/** The order of a crud search of people that names none: oldest first. */
export const peopleSearchOrder = () => [asc(users.createdAt), asc(users.id)];

/** A "contains" on the e-mail, the first, the last or the full name (LIKE wildcards escaped). */
export function userTextSearch(text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(
    ilike(users.email, pattern),
    ilike(users.firstName, pattern),
    ilike(users.lastName, pattern),
    sql`(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')) ilike ${pattern}`,
  )!;
}

/** The people matching a crud search, with their companies; the total only when a page was asked. */
export async function searchPeople(db: Executor, where: SQL | undefined, crud: CrudQuery) {
  const rows = await db
    .select(userWithCompaniesColumns)
    .from(users)
    .where(where)
    .orderBy(...crud.orderBy)
    .limit(crud.limit)
    .offset(crud.offset);
  if (!crud.page) return { rows };
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(users).where(where);
  return { rows, total: count?.total ?? 0 };
}

/** A crud search of the organisation's live users (every role) that the actor may see. */
export function searchVisibleUsers(db: Executor, actor: Actor, crud: CrudQuery) {
  return searchPeople(
    db,
    and(
      eq(users.organisationId, actor.organisationId),
      isNull(users.deletedAt),
      userVisibility(actor),
      crud.where,
    ),
    crud,
  );
}

/**
 * A page of the organisation's users that the actor may see, with the total: the archived ones
 * or the live ones, of the roles and matching the text when given.
 */
export async function listVisibleUsers(
  db: Executor,
  actor: Actor,
  filter: { archived?: boolean; roles?: Role[]; search?: string },
  page: Pick<PageRequest, 'orderBy' | 'limit' | 'offset'>,
) {
  const where = and(
    eq(users.organisationId, actor.organisationId),
    filter.archived ? isNotNull(users.deletedAt) : isNull(users.deletedAt),
    filter.roles ? inArray(users.role, filter.roles) : undefined,
    filter.search ? userTextSearch(filter.search) : undefined,
    userVisibility(actor),
  );
  const [rows, [count]] = await Promise.all([
    db
      .select(userWithCompaniesColumns)
      .from(users)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** Inserts a user (or a contact); returns its id. */
export async function insertUser(db: Executor, values: typeof users.$inferInsert) {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row!.id;
}

/** The value that revokes the bearer tokens signed before it (platform/auth.ts). */
export const nextTokenVersion = () => sql`${users.tokenVersion} + 1`;

/** Archives a live user (soft delete). */
export async function archiveUser(db: Executor, id: string) {
  const now = new Date();
  await db
    .update(users)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(users.id, id), isNull(users.deletedAt)));
}

export async function unarchiveUser(db: Executor, id: string) {
  await db.update(users).set({ deletedAt: null, updatedAt: new Date() }).where(eq(users.id, id));
}

/** The columns a change of a user may set. */
export type UserUpdate = PgUpdateSetSource<typeof users>;

/** Writes the changed columns of a user and marks it as changed. */
export async function updateUser(db: Executor, id: string, set: UserUpdate) {
  await db
    .update(users)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(users.id, id));
}

/** Marks the user as changed (its relations changed, not its columns). */
export async function touchUser(db: Executor, id: string) {
  await db.update(users).set({ updatedAt: new Date() }).where(eq(users.id, id));
}
