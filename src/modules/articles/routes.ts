import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { badRequest } from '../../platform/errors.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import {
  DeletedResponse,
  IdParams,
  NullableInput,
  Paginated,
  problemResponses,
  Uuid,
} from '../../platform/schemas.ts';
import { type AttachmentServices, registerAttachmentRoutes } from '../files/attachments.ts';

import {
  AddBriefElementBody,
  ARTICLE_ALIASES,
  ArticleSchema,
  CreateArticleBody,
  UpdateArticleBody,
} from './schemas.ts';
import { ARTICLE_PAGE, type createArticleService } from './service.ts';

const ListQuery = pageQuerySchema(ARTICLE_PAGE, {
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name or code (case-insensitive)' }),
  ),
  companyId: Type.Optional(Uuid),
  briefElementId: Type.Optional(Uuid),
  enabled: Type.Optional(Type.Boolean()),
  createdBy: Type.Optional(
    Type.String({ format: 'uuid', description: 'Only the articles created by this user' }),
  ),
  externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Exact externalId' })),
  stocked: Type.Optional(
    Type.Boolean({ description: 'Only stocked (true) or made-to-order (false) articles' }),
  ),
});

const ARTICLE_HIPE = { aliases: ARTICLE_ALIASES, jsonStrings: ['customFields'] } as const;

const LINK_MODES =
  'An article links to a brief element in one of three ways: `briefElementId` of an existing element (the ' +
  'article inherits its production specification), a nested `briefElement` object (the service creates a ' +
  'standalone element, belonging to no brief, and links it), or neither (accessories, services). Sending both ' +
  'is refused (400); an unknown element is 422 `invalid_reference`; an invalid nested element is 400/422 with ' +
  'pointers under `/briefElement`.';

export const articlesRoutes = (
  service: ReturnType<typeof createArticleService>,
  attachments: AttachmentServices,
): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.addSchema(ArticleSchema);
    const Article = Type.Ref('Article');
    const tags = ['articles'];

    app.post(
      '/articles',
      {
        config: { permission: 'articles:write', hipe: ARTICLE_HIPE },
        schema: {
          tags,
          operationId: 'createArticle',
          summary: 'Create a catalogue article',
          description:
            `\`code\` is unique per organisation among live articles (409 \`duplicate_code\`). ${LINK_MODES} ` +
            'A stocked article (`stocked` true) is available from `quantity`; a non-stocked one is produced on demand.',
          body: CreateArticleBody,
          response: { 201: Article, ...problemResponses(409, 422) },
        },
      },
      async (request, reply) => {
        const article = await service.create(actorOf(request), request.body);
        return reply.status(201).send(article);
      },
    );

    app.get(
      '/articles',
      {
        config: { permission: 'articles:read' },
        schema: {
          tags,
          operationId: 'listArticles',
          summary: 'List articles (paginated, searchable by name or code)',
          querystring: ListQuery,
          response: { 200: Paginated(Article), ...problemResponses() },
        },
      },
      async (request) => service.list(actorOf(request), request.query),
    );

    app.get(
      '/articles/:id',
      {
        config: { permission: 'articles:read' },
        schema: {
          tags,
          operationId: 'getArticle',
          summary: 'Get an article with its company, currency, brief element id and preview file id',
          params: IdParams,
          response: { 200: Article, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/articles/:id',
      {
        config: { permission: 'articles:write', hipe: ARTICLE_HIPE },
        schema: {
          tags,
          operationId: 'updateArticle',
          summary: 'Change some fields of an article',
          description: `Send only the fields to change; \`customFields\` are merged (a key set to null is removed). ${LINK_MODES} \`briefElementId: null\` unlinks the element.`,
          params: IdParams,
          body: UpdateArticleBody,
          response: { 200: Article, ...problemResponses(409, 422) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/articles/:id',
      {
        config: { permission: 'articles:write' },
        schema: {
          tags,
          operationId: 'deleteArticle',
          summary: 'Soft-delete an article',
          description:
            'The article disappears from reads and lists and its code becomes free again; order items that ' +
            'reference it keep the reference.',
          params: IdParams,
          response: { 200: DeletedResponse, ...problemResponses() },
        },
      },
      async (request) => service.remove(actorOf(request), request.params.id),
    );

    app.put(
      '/articles/:id/preview',
      {
        config: { permission: 'articles:write' },
        schema: {
          tags,
          operationId: 'setArticlePreview',
          summary: 'Set (or clear, with null) the preview image of an article',
          description:
            'The file must be a live file of this article, uploaded with POST /api/articles/{id}/files ' +
            '(422 `invalid_reference` otherwise). Deleting the file clears the preview.',
          params: IdParams,
          body: Type.Object({ fileId: NullableInput(Uuid) }, { additionalProperties: false }),
          response: { 200: Article, ...problemResponses(422) },
        },
      },
      async (request) => service.setPreview(actorOf(request), request.params.id, request.body.fileId),
    );

    app.patch(
      '/articles/:id/files/:fileId/default',
      {
        config: { permission: 'articles:write' },
        schema: {
          tags,
          operationId: 'setArticlePreviewFile',
          summary: 'Make a file of the article its preview image (HIPE client’s form)',
          description:
            'The same as PUT /api/articles/{id}/preview with `{"fileId": ...}`: the file must be a live file ' +
            'of this article (422 `invalid_reference`). Answers the article.',
          params: Type.Object({ id: Uuid, fileId: Uuid }),
          response: { 200: Article, ...problemResponses(422) },
        },
      },
      async (request) => service.setPreview(actorOf(request), request.params.id, request.params.fileId),
    );

    app.post(
      '/articles/:id/brief-element',
      {
        config: { permission: 'articles:write' },
        schema: {
          tags,
          operationId: 'addArticleBriefElement',
          summary: 'Give an article a new standalone brief element with these dimensions (HIPE client)',
          description:
            'The same as PATCH /api/articles/{id} with `briefElement: {lengthDimension, widthDimension, ' +
            'heightDimension}`: a standalone element is created and linked (replacing the previous link). ' +
            '`alias.length|width|height` are the same dimensions under HIPE’s other names (400 if they differ). ' +
            'Answers the article.',
          params: IdParams,
          body: AddBriefElementBody,
          response: { 200: Article, ...problemResponses(422) },
        },
      },
      async (request) => {
        const { alias, ...dimensions } = request.body;
        const element: Record<string, number> = { ...dimensions };
        for (const [short, long] of [
          ['length', 'lengthDimension'],
          ['width', 'widthDimension'],
          ['height', 'heightDimension'],
        ] as const) {
          const value = alias?.[short];
          if (value === undefined) continue;
          if (element[long] !== undefined && element[long] !== value) {
            throw badRequest(`alias.${short} and ${long} differ`, [
              { pointer: `/alias/${short}`, message: `differs from /${long}`, in: 'body' },
            ]);
          }
          element[long] = value;
        }
        return service.update(actorOf(request), request.params.id, { briefElement: element });
      },
    );

    // Files and comments: /articles/{id}/files, /articles/{id}/comments (files:read / files:write).
    registerAttachmentRoutes(app, attachments, {
      entity: 'article',
      path: '/articles/:id',
      tags,
      assertParentVisible: (actor, id) => service.assertVisible(actor, id),
    });
  };
};
