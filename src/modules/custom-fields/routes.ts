import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, IdParams, Paginated, problemResponses } from '../../platform/schemas.ts';
import {
  CreateCustomFieldBody,
  CustomFieldListQuery,
  CustomFieldSchema,
  UpdateCustomFieldBody,
} from './schemas.ts';
import type { createCustomFieldService } from './service.ts';

export const customFieldsRoutes =
  (service: ReturnType<typeof createCustomFieldService>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(CustomFieldSchema);
    const tags = ['custom fields'];
    const CustomField = Type.Ref('CustomFieldDefinition');

    app.post(
      '/custom-fields',
      {
        config: { permission: 'settings:manage' },
        schema: {
          tags,
          operationId: 'createCustomField',
          summary: 'Define a custom field of companies, contacts, orders, articles, projects or quotes',
          description:
            'The key is unique per entity among live definitions (409). `options` are required for select ' +
            'and multi-select fields and refused for the other types.',
          body: CreateCustomFieldBody,
          response: { 201: CustomField, ...problemResponses(409) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.get(
      '/custom-fields',
      {
        config: { permission: 'settings:read' },
        schema: {
          tags,
          operationId: 'listCustomFields',
          summary: 'List the custom field definitions, optionally of one entity',
          querystring: CustomFieldListQuery,
          response: { 200: Paginated(CustomField), ...problemResponses() },
        },
      },
      async (request) => service.list(actorOf(request), request.query),
    );

    app.get(
      '/custom-fields/:id',
      {
        config: { permission: 'settings:read' },
        schema: {
          tags,
          operationId: 'getCustomField',
          summary: 'Get a custom field definition',
          params: IdParams,
          response: { 200: CustomField, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/custom-fields/:id',
      {
        config: { permission: 'settings:manage' },
        schema: {
          tags,
          operationId: 'updateCustomField',
          summary: 'Change the label, options, required flag or position of a custom field',
          params: IdParams,
          body: UpdateCustomFieldBody,
          response: { 200: CustomField, ...problemResponses() },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/custom-fields/:id',
      {
        config: { permission: 'settings:manage' },
        schema: {
          tags,
          operationId: 'deleteCustomField',
          summary: 'Delete a custom field definition (soft delete)',
          description: 'Stored values are kept on the records but no longer accepted in writes.',
          params: IdParams,
          response: { 200: DeletedResponse, ...problemResponses() },
        },
      },
      async (request) => service.remove(actorOf(request), request.params.id),
    );
  };
