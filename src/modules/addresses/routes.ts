import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, IdParams, Paginated, problemResponses } from '../../platform/schemas.ts';
import {
  AddressSchema,
  AddressTypeSchema,
  type CreateAddress,
  CreateAddressBody,
  type UpdateAddress,
  UpdateAddressBody,
} from './schemas.ts';
import { ADDRESS_PAGE, type AddressListQuery, createAddressService } from './service.ts';

const Address = Type.Ref('Address');

export const addressesRoutes = (ctx: AppContext): FastifyPluginAsyncTypebox => {
  const service = createAddressService(ctx);
  return async (app) => {
    app.addSchema(AddressSchema);

    app.get(
      '/addresses',
      {
        config: { permission: 'addresses:read' },
        schema: {
          tags: ['addresses'],
          operationId: 'listAddresses',
          summary: 'List addresses page by page',
          description: 'Addresses of archived companies are not listed.',
          querystring: pageQuerySchema(ADDRESS_PAGE, {
            companyId: Type.Optional(
              Type.String({ format: 'uuid', description: 'Only the addresses of this company' }),
            ),
            type: Type.Optional(AddressTypeSchema),
          }),
          response: { 200: Paginated(Address), ...problemResponses() },
        },
      },
      async (request) => service.list(actorOf(request), request.query as AddressListQuery),
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
        config: { permission: 'addresses:write' },
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
      async (request, reply) =>
        reply.status(201).send(await service.create(actorOf(request), request.body as CreateAddress)),
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
        config: { permission: 'addresses:write' },
        schema: {
          tags: ['addresses'],
          operationId: 'updateAddress',
          summary: 'Change an address',
          params: IdParams,
          body: UpdateAddressBody,
          response: { 200: Address, ...problemResponses(422) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body as UpdateAddress),
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
