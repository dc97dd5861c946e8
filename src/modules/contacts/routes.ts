import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { crudQuerySchema, foldIndexedCrudParams, SearchResult } from '../../platform/crud-search.ts';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, problemResponses } from '../../platform/schemas.ts';
import { USER_ALIASES } from '../users/schemas.ts';
import { CONTACT_CRUD_FIELDS } from './repository.ts';
import { CompanyContactParams, ContactSchema, CreateContactBody, UpdateContactBody } from './schemas.ts';
import { CONTACT_SEARCH, type createContactService } from './service.ts';

const CONTACT_HIPE = { aliases: USER_ALIASES, jsonStrings: ['customFields', 'collaborationIds'] } as const;

const Contact = Type.Ref('Contact');

export const contactsRoutes = (
  service: ReturnType<typeof createContactService>,
): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.addSchema(ContactSchema);

    app.get(
      '/users/contacts',
      {
        config: { permission: 'contacts:read' },
        preValidation: foldIndexedCrudParams,
        schema: {
          tags: ['contacts'],
          operationId: 'searchContacts',
          summary: 'Search contacts (@nestjsx/crud grammar)',
          description:
            'The ERP sync flow: `s={"email":{"$eq":"x@y.z"}}` or `s={"externalId":{"$eq":"X"}}` answers an ' +
            'array of zero or one contact; create it with POST when absent, update it with PATCH when present. ' +
            '`$eq` compares exactly; `$eqL` ignores case. A plain array unless `page` is given. Company-scoped ' +
            'readers see the contacts of their companies.',
          querystring: crudQuerySchema({ fields: Object.keys(CONTACT_CRUD_FIELDS), ...CONTACT_SEARCH }),
          response: { 200: SearchResult(Contact), ...problemResponses() },
        },
      },
      async (request) => service.search(actorOf(request), request.query),
    );

    app.post(
      '/users/contacts',
      {
        config: { permission: 'contacts:write', hipe: CONTACT_HIPE },
        schema: {
          tags: ['contacts'],
          operationId: 'createContact',
          summary: 'Create a contact',
          description:
            'A contact has no password and cannot sign in. `email` and `externalId` are unique among the live ' +
            'users of the organisation (409 `email_taken`, `external_id_taken`); each `collaborationIds` entry ' +
            'must be a company of the organisation (422 `unknown_company`, pointer `/collaborationIds/<i>`). ' +
            'An external sales user must link the contact to at least one of its companies.',
          body: CreateContactBody,
          response: { 201: Contact, ...problemResponses(409, 422) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.get(
      '/users/contacts/:id',
      {
        config: { permission: 'contacts:read' },
        schema: {
          tags: ['contacts'],
          operationId: 'getContact',
          summary: 'Read a contact',
          params: IdParams,
          response: { 200: Contact, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/users/contacts/:id',
      {
        config: { permission: 'contacts:write', hipe: CONTACT_HIPE },
        schema: {
          tags: ['contacts'],
          operationId: 'updateContact',
          summary: 'Change a contact',
          description:
            'Only the properties sent change. `collaborationIds` replaces the set of linked companies (an ' +
            'external sales user replaces only the links to its own companies). Archive a contact with ' +
            'DELETE /api/users/{id}/archived.',
          params: IdParams,
          body: UpdateContactBody,
          response: { 200: Contact, ...problemResponses(409, 422) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.get(
      '/companies/:id/contacts',
      {
        config: { permission: 'contacts:read' },
        schema: {
          tags: ['contacts', 'companies'],
          operationId: 'listCompanyContacts',
          summary: 'The contacts linked to a company',
          description: 'At most 1000 contacts, by last name then first name.',
          params: IdParams,
          response: { 200: Type.Array(Contact), ...problemResponses() },
        },
      },
      async (request) => service.listForCompany(actorOf(request), request.params.id),
    );

    app.post(
      '/companies/:id/contacts/:contactId',
      {
        config: { permission: 'contacts:write' },
        schema: {
          tags: ['contacts', 'companies'],
          operationId: 'linkCompanyContact',
          summary: 'Link a contact to a company',
          description: 'Idempotent: linking an already linked contact changes nothing. Answers the contact.',
          params: CompanyContactParams,
          response: { 200: Contact, ...problemResponses() },
        },
      },
      async (request) => service.link(actorOf(request), request.params.id, request.params.contactId),
    );

    app.delete(
      '/companies/:id/contacts/:contactId',
      {
        config: { permission: 'contacts:write' },
        schema: {
          tags: ['contacts', 'companies'],
          operationId: 'unlinkCompanyContact',
          summary: 'Unlink a contact from a company',
          description: 'Answers the contact; 404 when they are not linked.',
          params: CompanyContactParams,
          response: { 200: Contact, ...problemResponses() },
        },
      },
      async (request) => service.unlink(actorOf(request), request.params.id, request.params.contactId),
    );
  };
};
