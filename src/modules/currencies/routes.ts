import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, IdParams, Paginated, problemResponses } from '../../platform/schemas.ts';
import {
  CreateCurrencyBody,
  CURRENCY_ALIASES,
  CurrencyListQuery,
  CurrencySchema,
  UpdateCurrencyBody,
} from './schemas.ts';
import type { createCurrencyService } from './service.ts';

export const currenciesRoutes = (
  service: ReturnType<typeof createCurrencyService>,
): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.addSchema(CurrencySchema);
    const tags = ['currencies'];
    const Currency = Type.Ref('Currency');

    app.post(
      '/currencies',
      {
        config: { permission: 'settings:manage', hipe: { aliases: CURRENCY_ALIASES } },
        schema: {
          tags,
          operationId: 'createCurrency',
          summary: 'Add a currency with its rate to the base currency',
          description: 'The code is unique among the organisation’s live currencies (409).',
          body: CreateCurrencyBody,
          response: { 201: Currency, ...problemResponses(409) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.get(
      '/currencies',
      {
        config: { permission: 'settings:read' },
        schema: {
          tags,
          operationId: 'listCurrencies',
          summary: 'List the currencies of the organisation',
          querystring: CurrencyListQuery,
          response: { 200: Paginated(Currency), ...problemResponses() },
        },
      },
      async (request) => service.list(actorOf(request), request.query),
    );

    app.get(
      '/currencies/:id',
      {
        config: { permission: 'settings:read' },
        schema: {
          tags,
          operationId: 'getCurrency',
          summary: 'Get a currency',
          params: IdParams,
          response: { 200: Currency, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/currencies/:id',
      {
        config: { permission: 'settings:manage', hipe: { aliases: CURRENCY_ALIASES } },
        schema: {
          tags,
          operationId: 'updateCurrency',
          summary: 'Change a currency',
          description: 'The base currency keeps its code and a rate of 1 (409).',
          params: IdParams,
          body: UpdateCurrencyBody,
          response: { 200: Currency, ...problemResponses(409) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/currencies/:id',
      {
        config: { permission: 'settings:manage' },
        schema: {
          tags,
          operationId: 'deleteCurrency',
          summary: 'Delete a currency (soft delete); the base currency cannot be deleted (409)',
          params: IdParams,
          response: { 200: DeletedResponse, ...problemResponses(409) },
        },
      },
      async (request) => service.remove(actorOf(request), request.params.id),
    );
  };
};
