import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { outputAliasesFor, withOutputAliases } from '../../platform/hipe.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, IdParams, PageMeta, problemResponses } from '../../platform/schemas.ts';
import { type Body, compositions, prices, RESOURCES, type Resource, suppliers } from './resources.ts';
import { ANSWERS, BODIES, listQuery } from './schemas.ts';
import type { createCorrugatedService, ListQuery } from './service.ts';

/** The resources the node can also delete and create in bulk. */
const DELETABLE = new Set<Resource>([compositions, prices]);

/** Purchasing data (who we buy from, at what price): only the seller's staff read it. */
const PURCHASING = new Set<Resource>([prices, suppliers]);

/**
 * `/api/corrugated-*`: the corrugated resources of HIPE's n8n node over the estimating catalogue
 * (see resources.ts and docs/hipe-compatibility.md). Reading needs `catalogue:read` (a buyer reads
 * no price: catalogue/audience.ts), suppliers and prices `costs:read`; writing `catalogue:manage`.
 */
export const corrugatedRoutes = (
  service: ReturnType<typeof createCorrugatedService>,
): FastifyPluginAsyncTypebox => {
  return async (app) => {
    const tags = ['corrugated'];
    // Answers are serialized as plain JSON: a record is served as stored (its catalogue record's
    // fields beside HIPE's), never trimmed by a serializer; the schemas document it (schemas.ts).
    const serializer = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
    for (const resource of RESOURCES) {
      const { path, one, many } = resource;
      // HIPE's names of its properties (`enable`), as the answers carry them (platform/hipe.ts).
      const answer = withOutputAliases(ANSWERS[path]!, outputAliasesFor(ANSWERS[path]!.properties));
      app.addSchema(answer);
      const ref = Type.Ref(answer.$id!);
      const body = BODIES[path]!;
      const about = `(HIPE client: ${resource.label.toLowerCase()})`;
      const readPermission = PURCHASING.has(resource) ? 'costs:read' : 'catalogue:read';
      app.get(
        `/${path}`,
        {
          ...serializer,
          config: { permission: readPermission },
          schema: {
            tags,
            operationId: `list${many}`,
            summary: `List ${many
              .replace(/([A-Z])/g, ' $1')
              .trim()
              .toLowerCase()} page by page ${about}`,
            description:
              `Filters (flat or as \`filters[name]\`): ${Object.keys(resource.filters).join(', ')}; "" = no filter. ` +
              `Sort with \`sortBy\`/\`sortOrder\`, \`order[field]=asc|desc\` or \`sort=field,DIR\`: ${Object.keys(resource.sorts).join(', ')}. ` +
              '`limit` (or `itemsPerPage`) default 50, at most 500.',
            querystring: listQuery(Object.keys(resource.filters), Object.keys(resource.sorts)),
            response: { 200: Type.Object({ data: Type.Array(ref), meta: PageMeta }), ...problemResponses() },
          },
        },
        async (request) => service.list(actorOf(request), resource, request.query as ListQuery),
      );
      app.get(
        `/${path}/:id`,
        {
          ...serializer,
          config: { permission: readPermission },
          schema: {
            tags,
            operationId: `get${one}`,
            summary: `One ${resource.label.toLowerCase()} ${about}`,
            params: IdParams,
            response: { 200: ref, ...problemResponses() },
          },
        },
        async (request) => service.get(actorOf(request), resource, request.params.id),
      );
      app.post(
        `/${path}`,
        {
          ...serializer,
          config: { permission: 'catalogue:manage' },
          schema: {
            tags,
            operationId: `create${one}`,
            summary: `Create a ${resource.label.toLowerCase()} ${about}`,
            body: body.create,
            response: { 201: ref, ...problemResponses(409, 422) },
          },
        },
        async (request, reply) =>
          reply.code(201).send(await service.create(actorOf(request), resource, request.body as Body)),
      );
      app.patch(
        `/${path}/:id`,
        {
          ...serializer,
          config: { permission: 'catalogue:manage' },
          schema: {
            tags,
            operationId: `update${one}`,
            summary: `Change a ${resource.label.toLowerCase()}: the properties sent replace the stored ones ${about}`,
            params: IdParams,
            body: body.update,
            response: { 200: ref, ...problemResponses(409, 422) },
          },
        },
        async (request) =>
          service.update(actorOf(request), resource, request.params.id, request.body as Body),
      );
      if (!DELETABLE.has(resource)) continue;
      app.post(
        `/${path}/bulk`,
        {
          ...serializer,
          config: { permission: 'catalogue:manage' },
          schema: {
            tags,
            operationId: `create${many}InBulk`,
            summary: `Create ${many
              .replace(/([A-Z])/g, ' $1')
              .trim()
              .toLowerCase()} in bulk: all or none ${about}`,
            description: 'The body is the array of records, each as for one; pointers `/{index}/...`.',
            body: Type.Array(body.create, { minItems: 1, maxItems: 500 }),
            response: { 201: Type.Array(ref), ...problemResponses(409, 422) },
          },
        },
        async (request, reply) =>
          reply.code(201).send(await service.createBulk(actorOf(request), resource, request.body as Body[])),
      );
      app.delete(
        `/${path}/:id`,
        {
          config: { permission: 'catalogue:manage' },
          schema: {
            tags,
            operationId: `delete${one}`,
            summary: `Delete a ${resource.label.toLowerCase()} (soft delete) ${about}`,
            description:
              resource === compositions
                ? 'Its prices are deleted with it; 409 `reference_conflict` while a live brief is made of it.'
                : 'The composition’s price per m2 follows the price valid today, if any is left.',
            params: IdParams,
            response: { 200: DeletedResponse, ...problemResponses(409) },
          },
        },
        async (request) => service.remove(actorOf(request), resource, request.params.id),
      );
    }
  };
};
