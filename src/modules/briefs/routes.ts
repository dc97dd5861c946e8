import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { badRequest } from '../../platform/errors.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, IdParams, Nullable, problemResponses } from '../../platform/schemas.ts';
import { briefsForAudience, elementsForAudience } from './audience.ts';
import type { BriefsServices } from './module.ts';
import {
  BriefDetailsSchema,
  BriefElementSchema,
  BriefEstimateSchema,
  BriefIdParams,
  BriefListItemSchema,
  BriefListMeta,
  BriefListQueryExtra,
  BriefSchema,
  CreateBriefBody,
  DetailsQuery,
  ElementIndexParams,
  EstimateQuery,
  ImpositionQuery,
  PredictionPanelSchema,
  PredictionSummarySchema,
  PredictionVersionsSchema,
  ProcessSchema,
  StandaloneElementSchema,
  UpdateBriefBody,
  ValueAnalysisSchema,
  VersionQuery,
} from './schemas.ts';
import { BRIEF_PAGE } from './service.ts';

const tags = ['briefs'];
const Brief = Type.Ref('Brief');

const BriefListQuery = pageQuerySchema(BRIEF_PAGE, BriefListQueryExtra);

const SVG = {
  description: 'An SVG drawing (millimetre user units)',
  content: { 'image/svg+xml': { schema: { type: 'string' } } },
};

const sendSvg = (reply: FastifyReply, svg: string) =>
  reply
    .header('content-type', 'image/svg+xml; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(svg);

const POLLING =
  'Poll GET /briefs/{id} until `predictionStatus` is COMPLETED and `hasPrice` is true, then read details, process and value-analysis.';

export const briefsRoutes = (wired: BriefsServices): FastifyPluginAsyncTypebox => {
  const service = briefsForAudience(wired.briefs);
  const { detailsCache } = wired;
  return async (app) => {
    app.addSchema(BriefElementSchema);
    app.addSchema(PredictionSummarySchema);
    app.addSchema(BriefSchema);
    app.addSchema(BriefListItemSchema);

    app.get(
      '/briefs',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'listBriefs',
          summary: 'List briefs page by page',
          description:
            'Filters: `status` (comma-separated status ids), `lastupdate` (updated after), `companyId`, `projectId`, ' +
            '`predictionStatus`, `search`. Sort with `sort=field,DIRECTION` or `order=+updatedAt` (default `updatedAt,DESC`). ' +
            '`page`/`limit` (default 25, max 500), or `after` (keyset, the `meta.nextCursor` of the previous page). ' +
            "`meta.total` is exact up to 1,000 matches, then the planner's estimate (`meta.totalIsExact` false).",
          querystring: BriefListQuery,
          response: {
            200: Type.Object({ data: Type.Array(Type.Ref('BriefListItem')), meta: BriefListMeta }),
            ...problemResponses(),
          },
        },
      },
      async (request) => service.list(actorOf(request), request.query),
    );

    app.post(
      '/briefs',
      {
        config: { permission: 'briefs:write' },
        schema: {
          tags,
          operationId: 'createBrief',
          summary: 'Create a brief and price it (synchronous)',
          description:
            'The brief is priced in the request: the answer has `predictionStatus` COMPLETED, `hasPrice` true and the ' +
            'prediction totals. 400: shape (no elements, missing `decorationsCount`, duplicate `position`, ' +
            '`decorationIndex` outside 0..11, margin outside 0..0.99...); 422 `invalid_brief`: what the engine refuses ' +
            "(unknown catalogue ids, dimensions out of the machines' range, colours without decoration...), with " +
            'pointers into the request; 422 `invalid_reference` for an unknown project, company or status.',
          body: CreateBriefBody,
          response: { 201: Brief, ...problemResponses(422) },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(actorOf(request), request.body, 'sync')),
    );

    app.post(
      '/briefs/estimate',
      {
        config: { permission: 'briefs:write' },
        schema: {
          tags,
          operationId: 'estimateBrief',
          summary: "Price an unsaved brief (a configurator's live price): writes nothing",
          description:
            'The same body and checks as POST /briefs (400 for the shape, 422 `invalid_brief` with pointers, ' +
            '`invalid_reference`, 403 for a company out of reach), but nothing is stored: the answer is the ' +
            'prediction (totals, unit price, lead time, cost breakdown), per element its die-line and imposition ' +
            'as SVG and its operation sequence. `?include=analysis` adds the value analysis: the quantity curves, ' +
            'price breaks, cost shares and the savings, each with the changes to apply to the body.',
          querystring: EstimateQuery,
          body: CreateBriefBody,
          response: { 200: BriefEstimateSchema, ...problemResponses(422) },
        },
      },
      async (request) =>
        service.estimate(actorOf(request), request.body, request.query.include === 'analysis') as never,
    );

    app.post(
      '/briefs/async',
      {
        config: { permission: 'briefs:write' },
        schema: {
          tags,
          operationId: 'createBriefAsync',
          summary: 'Create a brief, priced in the background',
          description: `Answers 202 at once with \`predictionStatus\` PENDING; a durable job prices it (PENDING -> IN_PROGRESS -> COMPLETED, or FAILED with \`failureReason\`). The same checks as POST /briefs run first (400/422). ${POLLING}`,
          body: CreateBriefBody,
          response: { 202: Brief, ...problemResponses(422) },
        },
      },
      async (request, reply) =>
        reply.status(202).send(await service.create(actorOf(request), request.body, 'async')),
    );

    app.get(
      '/briefs/:id',
      {
        config: { permission: 'briefs:read', etag: true },
        schema: {
          tags,
          operationId: 'getBrief',
          summary: 'Read a brief: its fields, element specifications, project and prediction status',
          description: `${POLLING} The project object carries \`companyId\`.`,
          params: IdParams,
          response: { 200: Brief, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.put(
      '/briefs/:id',
      {
        config: { permission: 'briefs:write' },
        schema: {
          tags,
          operationId: 'updateBrief',
          summary: 'Change a brief (and re-price it)',
          description:
            'Only the properties sent change. `briefElements`, when sent, replaces the elements: an element with an ' +
            '`id` keeps that element, one without takes over the element of the same position, the others are ' +
            'deleted. A change of elements, packing, pallet, delivery zone or margin prices the brief again into a ' +
            'new prediction version; earlier versions stay readable (`GET /briefs/{id}/predictions`, `?version=`).',
          params: IdParams,
          body: UpdateBriefBody,
          response: { 200: Brief, ...problemResponses(422) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/briefs/:id',
      {
        config: { permission: 'briefs:write' },
        schema: {
          tags,
          operationId: 'deleteBrief',
          summary: 'Delete a brief and its elements (soft delete)',
          params: IdParams,
          response: { 200: DeletedResponse, ...problemResponses() },
        },
      },
      async (request) => service.remove(actorOf(request), request.params.id),
    );

    app.get(
      '/briefs/:id/details',
      {
        config: { permission: 'briefs:read', etag: true },
        // First of the route's onSend hooks: keeps the JSON text before ETag and compression.
        onSend: detailsCache.keep,
        schema: {
          tags,
          operationId: 'getBriefDetails',
          summary: 'Read the complete brief: BriefComputed, BriefPrice and the price of every element',
          description:
            '`briefComputed` and `briefPrice` are null while the brief has no prediction. `?version=` reads an earlier ' +
            'prediction (the elements shown are the current ones). `briefPrice.predictionRequestsComputed` holds the ' +
            'selected process variant of each element (one per element); `?include=alternatives` adds the others.',
          params: BriefIdParams,
          querystring: DetailsQuery,
          response: { 200: BriefDetailsSchema, ...problemResponses() },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const { version, include } = request.query;
        const usual = version === undefined && include === undefined;
        if (usual && (await detailsCache.trySend(request, reply, actor, request.params.id))) return reply;
        // The engine's objects are typed by their interfaces; the schema documents them loosely.
        return (await service.details(
          actor,
          request.params.id,
          version,
          include === 'alternatives',
        )) as never;
      },
    );

    app.get(
      '/briefs/:id/predictions',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'listBriefPredictions',
          summary: 'List the prediction versions of a brief (newest first)',
          params: BriefIdParams,
          response: { 200: PredictionVersionsSchema, ...problemResponses() },
        },
      },
      async (request) => service.versions(actorOf(request), request.params.id),
    );

    app.get(
      '/briefs/:id/process/:elementIndex',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'getBriefProcess',
          summary: 'Read the manufacturing process of an element (PredictionRequestComputed)',
          description:
            'The selected process variant of the element at this position, its operation sequence ordered by ' +
            'position and grouped by part, and the other variants. 404 for a position with no element; 409 ' +
            '`prediction_not_available` while the brief is not priced.',
          params: ElementIndexParams,
          querystring: VersionQuery,
          response: { 200: ProcessSchema, ...problemResponses(409) },
        },
      },
      async (request) =>
        service.process(
          actorOf(request),
          request.params.id,
          request.params.elementIndex,
          request.query.version,
        ),
    );

    app.get(
      '/briefs/:id/value-analysis',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'getBriefValueAnalysis',
          summary: 'Cost explanation and optimisation proposals, each priced by the engine',
          description:
            'Computed on first request and kept with the prediction version. 409 `prediction_not_available` while ' +
            'the brief is not priced.',
          params: BriefIdParams,
          querystring: VersionQuery,
          response: { 200: ValueAnalysisSchema, ...problemResponses(409) },
        },
      },
      async (request) => service.valueAnalysis(actorOf(request), request.params.id, request.query.version),
    );

    app.get(
      '/briefs/:id/prediction-panel',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'getBriefPredictionPanel',
          summary: 'What a buyer screen shows: totals, unit price, lead time, breakdown and quantity curve',
          params: BriefIdParams,
          querystring: VersionQuery,
          response: { 200: PredictionPanelSchema, ...problemResponses(409) },
        },
      },
      async (request) => service.panel(actorOf(request), request.params.id, request.query.version),
    );

    app.get(
      '/briefs/:id/elements/:elementIndex/die-line.svg',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'getBriefElementDieLine',
          summary: 'The die-line of an element as SVG (cut solid, crease dashed, dimensions)',
          params: ElementIndexParams,
          querystring: VersionQuery,
          response: { 200: SVG, ...problemResponses(409) },
        },
      },
      async (request, reply) =>
        sendSvg(
          reply,
          await service.dieLineSvg(
            actorOf(request),
            request.params.id,
            request.params.elementIndex,
            request.query.version,
          ),
        ),
    );

    app.get(
      '/briefs/:id/elements/:elementIndex/imposition.svg',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'getBriefElementImposition',
          summary: 'The imposition of an element as SVG (sheet, gripper, blanks laid out)',
          description: 'The selected process variant, or `?variant=<variantKey>`.',
          params: ElementIndexParams,
          querystring: ImpositionQuery,
          response: { 200: SVG, ...problemResponses(409) },
        },
      },
      async (request, reply) =>
        sendSvg(
          reply,
          await service.impositionSvg(
            actorOf(request),
            request.params.id,
            request.params.elementIndex,
            request.query,
          ),
        ),
    );
  };
};

const ElementAlias = Type.Object(
  {
    length: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    width: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    height: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  },
  {
    additionalProperties: false,
    description:
      'HIPE alias: the same dimensions as lengthDimension/widthDimension/heightDimension (400 if they differ)',
  },
);
const hipeElementFields = {
  briefId: Type.Optional(
    Nullable(
      Type.String({
        format: 'uuid',
        description:
          'HIPE: the parent brief. The element is added to it (at `position`, else last) through the brief update, which re-prices the brief into a new version',
      }),
    ),
  ),
  position: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 99,
      description:
        'In a brief: where the element goes (0-indexed; past the end: last), the others move; a standalone element is always at 0',
    }),
  ),
  externalId: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'The caller’s own id' }))),
  alias: Type.Optional(ElementAlias),
};
const ElementBody = Type.Object(
  { ...StandaloneElementSchema.properties, ...hipeElementFields },
  { additionalProperties: false },
);
const ElementListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    briefId: Type.Optional(Type.String({ format: 'uuid' })),
    productId: Type.Optional(Type.String({ format: 'uuid' })),
    productCategoryId: Type.Optional(Type.String({ format: 'uuid' })),
    sort: Type.Optional(
      Type.String({
        pattern: '^(createdAt|position|updatedAt),(ASC|DESC|asc|desc)$',
        description: '`field,ASC|DESC` (createdAt, position, updatedAt); default createdAt,DESC',
      }),
    ),
  },
  { additionalProperties: false },
);

/** `alias.length|width|height` folded into the dimensions (400 when both differ). */
function foldAlias(body: Record<string, unknown>) {
  const { alias, ...rest } = body as Record<string, unknown> & { alias?: Record<string, number> };
  for (const [short, long] of [
    ['length', 'lengthDimension'],
    ['width', 'widthDimension'],
    ['height', 'heightDimension'],
  ] as const) {
    const value = alias?.[short];
    if (value === undefined) continue;
    if (rest[long] !== undefined && rest[long] !== value) {
      throw badRequest(`alias.${short} and ${long} differ`, [
        { pointer: `/alias/${short}`, message: `differs from /${long}`, in: 'body' },
      ]);
    }
    rest[long] = value;
  }
  return rest;
}

/** `/api/brief-elements`: served under /api only (the spec names no unprefixed form). */
export const briefElementsRoutes = (wired: BriefsServices): FastifyPluginAsyncTypebox => {
  const service = briefsForAudience(wired.briefs);
  const elements = elementsForAudience(wired.elements);
  const elementTags = ['briefs'];
  return async (app) => {
    app.addSchema(BriefElementSchema);
    app.get(
      '/brief-elements',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags: elementTags,
          operationId: 'listBriefElements',
          summary: 'List brief elements (of briefs, and standalone ones) page by page (HIPE client)',
          description:
            'Filters `briefId`, `productId`, `productCategoryId`; `sort=createdAt|position|updatedAt,ASC|DESC`. ' +
            'Contacts see the elements of their companies’ briefs and the standalone elements of their companies’ articles.',
          querystring: ElementListQuery,
          response: {
            200: Type.Object({
              data: Type.Array(Type.Ref('BriefElement')),
              meta: Type.Object({
                page: Type.Integer(),
                limit: Type.Integer(),
                total: Type.Integer(),
                pageCount: Type.Integer(),
              }),
            }),
            ...problemResponses(),
          },
        },
      },
      async (request) => elements.list(actorOf(request), request.query),
    );
    app.post(
      '/brief-elements',
      {
        config: { permission: 'briefs:write' },
        schema: {
          tags: elementTags,
          operationId: 'createBriefElement',
          summary: 'Create a standalone brief element, priced at once when it has enough data (HIPE client)',
          description:
            'The element schema of briefs, all properties optional, plus HIPE’s `alias` (dimensions), `position` ' +
            '(ignored: 0) and `externalId`. It is priced synchronously when it has product, dimensions, board and ' +
            'decoration variants (`briefElementPrice`), else stored unpriced. With `briefId` the element is added to ' +
            'that brief exactly as PUT /briefs/{id} would (it needs what an element of a brief needs: 400 with pointers), ' +
            'and the brief is re-priced into a new version. Link it to an article with `briefElementId`.',
          body: ElementBody,
          response: { 201: Type.Ref('BriefElement'), ...problemResponses(409, 422) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await elements.create(actorOf(request), foldAlias(request.body))),
    );
    app.get(
      '/brief-elements/:id',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'getBriefElement',
          summary:
            'Read a brief element on its own (also standalone elements of articles), with its latest price',
          params: IdParams,
          response: { 200: Type.Ref('BriefElement'), ...problemResponses() },
        },
      },
      async (request) => service.element(actorOf(request), request.params.id),
    );
    app.patch(
      '/brief-elements/:id',
      {
        config: { permission: 'briefs:write' },
        schema: {
          tags: elementTags,
          operationId: 'updateBriefElement',
          summary: 'Change a brief element; it is validated and repriced as a whole (HIPE client)',
          description:
            'The properties sent replace the stored ones. An element of a brief is changed through the brief update ' +
            '(same validation, a new priced version of the brief; `position` moves it; another writer in between: ' +
            '409 `stale_write`); `briefId` cannot move an element to another brief (standalone: 422, of a brief: 400).',
          params: IdParams,
          body: ElementBody,
          response: { 200: Type.Ref('BriefElement'), ...problemResponses(409, 422) },
        },
      },
      async (request) => elements.update(actorOf(request), request.params.id, foldAlias(request.body)),
    );
    app.delete(
      '/brief-elements/:id',
      {
        config: { permission: 'briefs:write' },
        schema: {
          tags: elementTags,
          operationId: 'deleteBriefElement',
          summary: 'Delete a brief element (HIPE client)',
          description:
            'An element of a brief is removed through the brief update (the others are renumbered and the brief ' +
            're-priced; its only element: 409 `last_element`). A standalone element: soft delete, 409 ' +
            '`reference_conflict` while a live article is made from it.',
          params: IdParams,
          response: { 200: DeletedResponse, ...problemResponses(409, 422) },
        },
      },
      async (request) => elements.remove(actorOf(request), request.params.id),
    );
  };
};
