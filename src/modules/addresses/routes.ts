import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { SearchResult } from '../../platform/crud-search.ts';
import { foldHipeInput, prepareHipeInput } from '../../platform/hipe.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, IdParams, problemResponses } from '../../platform/schemas.ts';
import {
  ADDRESS_CREATE_HIPE,
  ADDRESS_UPDATE_HIPE,
  AddressSchema,
  AddressTypeSchema,
  BulkCreateAddressesBody,
  CreateAddressBody,
  UpdateAddressBody,
} from './schemas.ts';
import { ADDRESS_CRUD_FIELDS, ADDRESS_PAGE, type createAddressService } from './service.ts';

const Address = Type.Ref('Address');

export const addressesRoutes = (
  service: ReturnType<typeof createAddressService>,
): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.addSchema(AddressSchema);

    app.get(
      '/addresses',
      {
        config: { permission: 'addresses:read' },
        schema: {
          tags: ['addresses'],
          operationId: 'listAddresses',
          summary: 'List addresses page by page, or search them (`s`)',
          description:
            'Addresses of archived companies are not listed. With `s` (HIPE client’s search) the answer is ' +
            'a plain array unless `page` is given: `s` is a @nestjsx/crud JSON search (fields: ' +
            `${Object.keys(ADDRESS_CRUD_FIELDS).join(', ')}) or plain text (a "contains" on name, street, ` +
            'postcode, city or externalId; "" matches every address).',
          querystring: pageQuerySchema(ADDRESS_PAGE, {
            companyId: Type.Optional(
              Type.String({ format: 'uuid', description: 'Only the addresses of this company' }),
            ),
            type: Type.Optional(AddressTypeSchema),
            s: Type.Optional(
              Type.String({ maxLength: 4000, description: 'Search: crud JSON or plain text' }),
            ),
          }),
          response: { 200: SearchResult(Address), ...problemResponses() },
        },
      },
      async (request) => {
        const query = request.query;
        if (query.s === undefined) return service.list(actorOf(request), query);
        // The search answers the page envelope only when the client asked for a page.
        const pageAsked = new URLSearchParams(request.url.split('?')[1] ?? '').has('page');
        return service.search(actorOf(request), { ...query, page: pageAsked ? query.page : undefined });
      },
    );

    app.get(
      '/companies/:id/addresses',
      {
        config: { permission: 'addresses:read' },
        schema: {
          tags: ['addresses', 'companies'],
          operationId: 'listCompanyAddresses',
          summary: 'The addresses of a company',
          description: 'Defaults first, then by type and creation; at most 1000.',
          params: IdParams,
          response: { 200: Type.Array(Address), ...problemResponses() },
        },
      },
      async (request) => service.listForCompany(actorOf(request), request.params.id),
    );

    app.post(
      '/addresses',
      {
        config: { permission: 'addresses:write', hipe: ADDRESS_CREATE_HIPE },
        schema: {
          tags: ['addresses'],
          operationId: 'createAddress',
          summary: 'Create an address',
          description:
            '`companyId` must be a company of the organisation (422 `unknown_company`; external sales: one of ' +
            'their companies, else 403). `isDefault: true` makes it the company’s default of its type.',
          body: CreateAddressBody,
          response: { 201: Address, ...problemResponses(422) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.post(
      '/addresses/bulk',
      {
        config: { permission: 'addresses:write' },
        preValidation: async (request) => {
          const items = (request.body as { bulk?: unknown } | undefined)?.bulk;
          if (!Array.isArray(items)) return;
          items.forEach((item, i) => {
            if (item && typeof item === 'object' && !Array.isArray(item)) {
              prepareHipeInput(
                item as Record<string, unknown>,
                ADDRESS_CREATE_HIPE,
                CreateAddressBody,
                `/bulk/${i}`,
              );
            }
          });
        },
        preHandler: async (request) => {
          request.body.bulk.forEach((item, i) => {
            foldHipeInput(item as Record<string, unknown>, ADDRESS_CREATE_HIPE, `/bulk/${i}`);
          });
        },
        schema: {
          tags: ['addresses'],
          operationId: 'createAddresses',
          summary: 'Create several addresses at once (all or none)',
          description:
            'Each item is an address as POST /api/addresses takes it; the first refused item answers (with ' +
            'a pointer such as `/bulk/2/companyId`) and nothing is created.',
          body: BulkCreateAddressesBody,
          response: { 201: Type.Array(Address), ...problemResponses(422) },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.createMany(actorOf(request), request.body.bulk)),
    );

    app.get(
      '/addresses/:id',
      {
        config: { permission: 'addresses:read' },
        schema: {
          tags: ['addresses'],
          operationId: 'getAddress',
          summary: 'Read an address',
          params: IdParams,
          response: { 200: Address, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/addresses/:id',
      {
        config: { permission: 'addresses:write', hipe: ADDRESS_UPDATE_HIPE },
        schema: {
          tags: ['addresses'],
          operationId: 'updateAddress',
          summary: 'Change an address',
          params: IdParams,
          body: UpdateAddressBody,
          response: { 200: Address, ...problemResponses(422) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/addresses/:id',
      {
        config: { permission: 'addresses:write' },
        schema: {
          tags: ['addresses'],
          operationId: 'deleteAddress',
          summary: 'Delete an address (soft delete)',
          params: IdParams,
          response: { 200: DeletedResponse, ...problemResponses() },
        },
      },
      async (request) => service.remove(actorOf(request), request.params.id),
    );
  };
};
