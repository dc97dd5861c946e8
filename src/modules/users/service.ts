import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { parseCrudQuery } from '../../platform/crud-query.ts';
import { type CrudQueryString, crudParams } from '../../platform/crud-search.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { changedFields } from '../../platform/events.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { isAllowed, mayActFor } from '../../platform/permissions.ts';
import { CONTACT_CRUD_FIELDS } from '../contacts/repository.ts';
import { validateCustomFields } from '../custom-fields/validate.ts';
import { assertIdentityFree, relinkCompanies, rereadPerson, savePersonUpdate } from './person-update.ts';
import {
  addCompanyLinks,
  archiveUser,
  assertLinkableCompanies,
  assertUserUnique,
  countOtherAdmins,
  credentialsOf,
  entityOfRole,
  findUserWithCompanies,
  insertUser,
  listVisibleUsers,
  nextTokenVersion,
  peopleSearchOrder,
  presentUser,
  ROLES,
  type Role,
  searchVisibleUsers,
  USER_PAGE,
  USER_ROLE_CRUD_FIELD,
  type UserWithCompanies,
  unarchiveUser,
  userColumnValues,
} from './repository.ts';
import type { CreateUser, UpdateUser } from './schemas.ts';

export { USER_PAGE };

export type UserListQuery = PageQuery & { role?: string; search?: string; archived?: boolean };

const isAdminRole = (role: Role) => role === 'admin' || role === 'superadmin';

/** Only a superadmin may create, change or archive a superadmin. */
function assertMaySetRole(actor: Actor, role: Role | undefined) {
  if (role === 'superadmin' && actor.role !== 'superadmin') {
    throw forbidden('Only a superadmin may manage superadmins');
  }
}

async function assertNotLastAdmin(db: Executor, organisationId: string, user: UserWithCompanies) {
  if (isAdminRole(user.role) && (await countOtherAdmins(db, organisationId, user.id)) === 0) {
    throw new AppError('last_admin', 'The organisation would have no admin left');
  }
}

/** `role=a,b`: every name must be a role. */
function parseRoles(value: string | undefined): Role[] | undefined {
  if (!value) return undefined;
  const names = value
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = names.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (unknown.length) {
    throw badRequest(`Unknown role: ${unknown.join(', ')}`, [
      { pointer: '/role', message: `must be a comma-separated list of: ${ROLES.join(', ')}`, in: 'query' },
    ]);
  }
  return names as Role[];
}

export function createUserService(ctx: Pick<AppContext, 'db' | 'change'>) {
  const { db } = ctx;

  const service = {
    async get(actor: Actor, id: string) {
      const user = await findUserWithCompanies(db, actor, id);
      if (!user) throw notFound('User');
      return presentUser(user, actor);
    },

    /** HIPE's user search: the crud grammar over every visible user (roles included); an array. */
    async search(actor: Actor, query: CrudQueryString) {
      const crud = parseCrudQuery(crudParams(query), {
        fields: { ...CONTACT_CRUD_FIELDS, role: USER_ROLE_CRUD_FIELD },
        defaultLimit: 25,
        maxLimit: 100,
        defaultSort: peopleSearchOrder(),
      });
      const { rows, total } = await searchVisibleUsers(db, actor, crud);
      const found = rows.map((u) => presentUser(u, actor));
      if (!crud.page) return found;
      return pageResult(found, total ?? 0, { page: crud.page, limit: crud.limit });
    },

    async list(actor: Actor, query: UserListQuery) {
      const roles = parseRoles(query.role);
      if (query.archived && !isAllowed(actor.role, 'users:manage')) {
        throw forbidden('Only admins list archived users');
      }
      const page = resolvePage(query, USER_PAGE);
      const { rows, total } = await listVisibleUsers(
        db,
        actor,
        { archived: query.archived, roles, search: query.search },
        page,
      );
      return pageResult(
        rows.map((u) => presentUser(u, actor)),
        total,
        page,
      );
    },

    async create(actor: Actor, input: CreateUser) {
      assertMaySetRole(actor, input.role);
      const email = input.email.trim();
      const username = email.toLowerCase();
      const passwordHash = await hashPassword(input.password);
      return ctx.change(actor, async (tx, record) => {
        await assertUserUnique(tx, actor.organisationId, { username, email, externalId: input.externalId });
        const companyIds = input.companyIds ?? [];
        await assertLinkableCompanies(tx, actor, companyIds, '/companyIds');
        // A contact created here must still satisfy the required contact custom fields.
        const customFields =
          input.role === 'contact'
            ? await validateCustomFields(tx, actor.organisationId, 'contact', undefined)
            : {};
        const userId = await insertUser(tx, {
          organisationId: actor.organisationId,
          role: input.role,
          username,
          email,
          passwordHash,
          firstName: input.firstName ?? null,
          lastName: input.lastName ?? null,
          phoneNumber: input.phoneNumber ?? null,
          jobTitle: input.jobTitle ?? null,
          language: input.language ?? null,
          externalId: input.externalId ?? null,
          customFields,
          createdById: actor.userId,
        });
        await addCompanyLinks(tx, actor.organisationId, userId, companyIds);
        const user = await rereadPerson(tx, actor, userId);
        await record({
          on: entityOfRole(user.role),
          type: 'CREATE',
          entityId: user.id,
          snapshot: presentUser(user),
        });
        return presentUser(user, actor);
      });
    },

    async update(actor: Actor, id: string, input: UpdateUser) {
      assertMaySetRole(actor, input.role);
      const passwordHash = input.password ? await hashPassword(input.password) : undefined;
      return ctx.change(actor, async (tx, record) => {
        const current = await findUserWithCompanies(tx, actor, id);
        if (!current) throw notFound('User');
        assertMaySetRole(actor, current.role);
        if (passwordHash && !mayActFor(actor, current)) {
          throw forbidden('Setting the password of an equal or stronger user would let you act as them');
        }
        const credentials = (await credentialsOf(tx, id))!;
        const role = input.role ?? current.role;
        if (!isAdminRole(role)) await assertNotLastAdmin(tx, actor.organisationId, current);

        const email = input.email !== undefined ? input.email.trim() : current.email;
        const canSignIn = credentials.hasPassword || passwordHash !== undefined;
        if (role !== 'contact' && !canSignIn) {
          throw new AppError('password_required', 'A user of this role needs a password to sign in', {
            issues: [{ pointer: '/password', message: 'is required for this role', in: 'body' }],
          });
        }
        if (canSignIn && !email) {
          throw new AppError('email_required', 'A user who signs in needs an e-mail', {
            issues: [{ pointer: '/email', message: 'is required to sign in', in: 'body' }],
          });
        }
        const username = canSignIn ? email!.toLowerCase() : null;
        await assertIdentityFree(
          tx,
          actor.organisationId,
          id,
          { ...current, username: credentials.username },
          { username, email, externalId: input.externalId },
        );
        const relationsChanged = await relinkCompanies(tx, actor, id, input.companyIds, '/companyIds');
        const {
          password: _password,
          companyIds: _companyIds,
          email: _email,
          customFields: customInput,
          ...rest
        } = input;
        const fields: Record<string, unknown> = { ...rest };
        if (customInput !== undefined) {
          if (current.role !== 'contact') {
            throw new AppError('custom_fields_not_supported', 'Only contacts have custom fields', {
              issues: [{ pointer: '/customFields', message: 'only contacts have custom fields', in: 'body' }],
            });
          }
          fields.customFields = await validateCustomFields(
            tx,
            actor.organisationId,
            'contact',
            customInput,
            current.customFields,
          );
        }
        const next = { ...userColumnValues(current), ...fields, role, email, username };
        const changed = changedFields(userColumnValues(current), next);
        if (passwordHash) changed.push('password');
        if (changed.length === 0 && !relationsChanged) return presentUser(current, actor);

        return savePersonUpdate(tx, actor, record, {
          id,
          set: {
            ...fields,
            role,
            email,
            username,
            // A new password revokes the bearer tokens signed before it (platform/auth.ts).
            ...(passwordHash ? { passwordHash, tokenVersion: nextTokenVersion() } : {}),
          },
          changed,
          relationsChanged,
          entityOf: entityOfRole,
        });
      });
    },

    /**
     * Soft delete. Contacts may be archived by whoever writes contacts; other users only by admins.
     * Nobody archives themselves, and the last admin of an organisation stays.
     */
    async archive(actor: Actor, id: string, options: { contactsOnly?: boolean } = {}) {
      return ctx.change(actor, async (tx, record) => {
        const current = await findUserWithCompanies(tx, actor, id);
        if (!current) throw notFound('User');
        if (options.contactsOnly && current.role !== 'contact') {
          throw new AppError('not_a_contact', 'Only contacts are deleted this way; archive other users');
        }
        if (current.role !== 'contact' && !isAllowed(actor.role, 'users:manage')) {
          throw forbidden('Only admins archive users other than contacts');
        }
        assertMaySetRole(actor, current.role);
        if (current.id === actor.userId)
          throw new AppError('cannot_archive_self', 'You cannot archive yourself');
        await assertNotLastAdmin(tx, actor.organisationId, current);
        await archiveUser(tx, id);
        const user = await rereadPerson(tx, actor, id, true);
        await record({
          on: entityOfRole(user.role),
          type: 'DELETE',
          entityId: id,
          snapshot: presentUser(user),
        });
        return presentUser(user, actor);
      });
    },

    async unarchive(actor: Actor, id: string) {
      return ctx.change(actor, async (tx, record) => {
        const current = await findUserWithCompanies(tx, actor, id, { archived: true });
        if (!current) {
          if (await findUserWithCompanies(tx, actor, id)) {
            throw new AppError('not_archived', 'The user is not archived');
          }
          throw notFound('User');
        }
        assertMaySetRole(actor, current.role);
        const credentials = (await credentialsOf(tx, id))!;
        await assertUserUnique(
          tx,
          actor.organisationId,
          { username: credentials.username, email: current.email, externalId: current.externalId },
          id,
        );
        await unarchiveUser(tx, id);
        const user = await rereadPerson(tx, actor, id);
        await record({
          on: entityOfRole(user.role),
          type: 'UPDATE',
          entityId: id,
          snapshot: presentUser(user),
          updatedColumns: ['deletedAt'],
        });
        return presentUser(user, actor);
      });
    },

    /** Lets a contact sign in: sets its password; its username becomes its e-mail (required). */
    async invite(actor: Actor, id: string, password: string) {
      if (!(await findUserWithCompanies(db, actor, id, { role: 'contact' }))) throw notFound('Contact');
      return service.update(actor, id, { password });
    },
  };
  return service;
}
