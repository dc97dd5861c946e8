import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ROLES } from '../../db/schema/platform.ts';
import { crudQuerySchema, foldIndexedCrudParams, SearchResult } from '../../platform/crud-search.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { PERMISSIONS } from '../../platform/permissions.ts';
import { actorOf, currentUserOf } from '../../platform/route-security.ts';
import { IdParams, Paginated, problemResponses } from '../../platform/schemas.ts';
import { CONTACT_CRUD_FIELDS } from '../contacts/repository.ts';
import {
  CreateUserBody,
  Password,
  RoleSchema,
  UpdateUserBody,
  USER_UPDATE_ALIASES,
  UserSchemaWithAliases,
} from './schemas.ts';
import { type createUserService, USER_PAGE } from './service.ts';

const ROLE_DESCRIPTIONS: Record<(typeof ROLES)[number], string> = {
  superadmin: 'Administers the service: everything an admin does, plus creating organisations',
  admin: 'Manages everything in its organisation: users, settings, catalogue, webhooks, imports',
  sales: 'Works on companies, contacts, briefs, quotes, articles and orders',
  external_sales: 'Like sales, limited to the companies the user is linked to',
  contact: 'A client: sees its companies’ briefs, quotes and orders, accepts or declines quotes',
  guest: 'Reads only',
};

const User = Type.Ref('User');

const UserListQuery = pageQuerySchema(USER_PAGE, {
  role: Type.Optional(
    Type.String({
      maxLength: 200,
      description: `Comma-separated roles to keep (${ROLES.join(', ')})`,
    }),
  ),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Case-insensitive "contains" on e-mail, first name, last name or full name',
    }),
  ),
  archived: Type.Optional(
    Type.Boolean({ description: 'true: list the archived users instead of the live ones (admins only)' }),
  ),
  filterId: Type.Optional(
    Type.String({ maxLength: 200, description: 'A saved filter of HIPE clients: accepted and ignored' }),
  ),
});

export const usersRoutes = (service: ReturnType<typeof createUserService>): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.addSchema(UserSchemaWithAliases);
    app.get(
      '/users/me',
      {
        config: { permission: 'profile:read' },
        schema: {
          tags: ['users'],
          operationId: 'getCurrentUser',
          summary: 'The user behind the credential',
          response: { 200: User, ...problemResponses() },
        },
      },
      // The user record is loaded with the credential check: no second query.
      async (request) => currentUserOf(request),
    );

    app.get(
      '/roles',
      {
        config: { permission: 'roles:read' },
        schema: {
          tags: ['users'],
          operationId: 'listRoles',
          summary: 'The roles and the operations each may perform',
          response: {
            200: Type.Array(
              Type.Object({
                name: RoleSchema,
                description: Type.String(),
                permissions: Type.Array(Type.String()),
              }),
            ),
            ...problemResponses(),
          },
        },
      },
      async () =>
        ROLES.map((name) => ({
          name,
          description: ROLE_DESCRIPTIONS[name],
          permissions: Object.entries(PERMISSIONS)
            .filter(([, p]) => (p.roles as readonly string[]).includes(name))
            .map(([key]) => key),
        })),
    );

    for (const [url, operationId] of [
      ['/users/pagination', 'listUsers'],
      ['/users', 'listUsersAlias'],
    ] as const) {
      app.get(
        url,
        {
          config: { permission: 'users:read' },
          schema: {
            tags: ['users'],
            operationId,
            summary: url === '/users' ? 'List users (same as /users/pagination)' : 'List users page by page',
            description:
              'Every role, contacts included, unless `role` narrows it; `meta.hasNextPage` tells whether more ' +
              'pages exist. An external sales user sees itself and the users linked to its companies.',
            querystring: UserListQuery,
            response: { 200: Paginated(User), ...problemResponses() },
          },
        },
        async (request) => service.list(actorOf(request), request.query),
      );
    }

    app.get(
      '/users/search',
      {
        config: { permission: 'users:read' },
        preValidation: foldIndexedCrudParams,
        schema: {
          tags: ['users'],
          operationId: 'searchUsers',
          summary: 'Search users of every role (@nestjsx/crud grammar)',
          description:
            'e.g. `s={"name":{"$contL":"john"}}&limit=10`; `name` is the first and last name. A plain array ' +
            'unless `page` is given. The visibility of GET /api/users applies.',
          querystring: crudQuerySchema({
            fields: [...Object.keys(CONTACT_CRUD_FIELDS), 'role'],
            defaultLimit: 25,
            maxLimit: 100,
          }),
          response: { 200: SearchResult(User), ...problemResponses() },
        },
      },
      async (request) => service.search(actorOf(request), request.query),
    );

    app.post(
      '/users',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags: ['users'],
          operationId: 'createUser',
          summary: 'Create a user who signs in with its e-mail and password',
          description:
            'The username is the e-mail in lower case, unique across the service (409 `username_taken`); the ' +
            'e-mail is unique in the organisation (409 `email_taken`). Only a superadmin creates superadmins. ' +
            '`companyIds` links the user to companies (what an external sales user may see).',
          body: CreateUserBody,
          response: { 201: User, ...problemResponses(409, 422) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.get(
      '/users/:id',
      {
        config: { permission: 'users:read' },
        schema: {
          tags: ['users'],
          operationId: 'getUser',
          summary: 'Read a user',
          params: IdParams,
          response: { 200: User, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/users/:id',
      {
        config: {
          permission: 'users:manage',
          hipe: {
            aliases: USER_UPDATE_ALIASES,
            jsonStrings: ['customFields', 'companyIds', 'collaborationIds'],
          },
        },
        schema: {
          tags: ['users'],
          operationId: 'updateUser',
          summary: 'Change a user (role, names, e-mail, password, linked companies)',
          description:
            'Demoting the last admin answers 409 `last_admin`. Giving a password to a contact lets it sign in ' +
            '(its username becomes its e-mail); a role other than contact needs a password (422 ' +
            '`password_required`). `companyIds` replaces the set of linked companies.',
          params: IdParams,
          body: UpdateUserBody,
          response: { 200: User, ...problemResponses(409, 422) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/users/:id/archived',
      {
        config: { permission: 'contacts:write' },
        schema: {
          tags: ['users', 'contacts'],
          operationId: 'archiveUser',
          summary: 'Archive a user or a contact (soft delete)',
          description:
            'Answers the archived user. Contacts may be archived by every role that writes contacts (external ' +
            'sales: contacts of their companies); other users only by admins (`users:manage`, else 403). ' +
            'Archiving oneself or the last admin answers 409.',
          params: IdParams,
          response: { 200: User, ...problemResponses(409) },
        },
      },
      async (request) => service.archive(actorOf(request), request.params.id),
    );

    app.post(
      '/users/:id/invite',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags: ['users', 'contacts'],
          operationId: 'inviteContact',
          summary: 'Let a contact sign in by giving it a password',
          description:
            'The contact’s username becomes its e-mail in lower case: a contact without e-mail answers 422 ' +
            '`email_required`, a username held by another live user 409 `username_taken`. Calling it again ' +
            'sets a new password. Answers the contact.',
          params: IdParams,
          body: Type.Object({ password: Password }, { additionalProperties: false }),
          response: { 200: User, ...problemResponses(409, 422) },
        },
      },
      async (request) => service.invite(actorOf(request), request.params.id, request.body.password),
    );

    app.post(
      '/users/:id/unarchive',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags: ['users'],
          operationId: 'unarchiveUser',
          summary: 'Bring an archived user back',
          description:
            'Refused with 409 when the user is not archived (`not_archived`) or when a live user now holds ' +
            'its username, e-mail or externalId.',
          params: IdParams,
          response: { 200: User, ...problemResponses(409) },
        },
      },
      async (request) => service.unarchive(actorOf(request), request.params.id),
    );

    app.get(
      '/users/:id/unarchived',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags: ['users'],
          operationId: 'unarchiveUserHipe',
          summary: 'Bring an archived user back (HIPE client’s form of POST /api/users/{id}/unarchive)',
          description:
            'The same operation as POST /api/users/{id}/unarchive, reached with GET as HIPE’s node sends it.',
          params: IdParams,
          response: { 200: User, ...problemResponses(409) },
        },
      },
      async (request) => service.unarchive(actorOf(request), request.params.id),
    );

    app.delete(
      '/users/:id',
      {
        config: { permission: 'contacts:write' },
        schema: {
          tags: ['users', 'contacts'],
          operationId: 'deleteContact',
          summary: 'Delete a contact (HIPE client’s hard delete; archives it here)',
          description:
            'Only contacts (409 `not_a_contact` for other users, whom DELETE /api/users/{id}/archived ' +
            'archives). The contact is archived (soft delete), as with DELETE /api/users/{id}/archived, so ' +
            'the quotes and events that name it keep their history.',
          params: IdParams,
          response: { 200: User, ...problemResponses(409) },
        },
      },
      async (request) => service.archive(actorOf(request), request.params.id, { contactsOnly: true }),
    );
  };
};
