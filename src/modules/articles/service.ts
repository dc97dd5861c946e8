import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { type Actor, assertCompanyVisible, assertCompanyWritable } from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { changedFields, type EventRecorder } from '../../platform/events.ts';
import { roundUnitPrice } from '../../platform/money.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { invalidReference, liveCompany, liveCurrency, liveStaffUsers } from '../../platform/references.ts';
import type { WithCustomFields } from '../../platform/schemas.ts';
import { validateCustomFields } from '../custom-fields/validate.ts';
import { findFile } from '../files/repository.ts';
import { type BriefElementInput, briefElementLinkerOf } from './brief-element-linker.ts';
import {
  ARTICLE_ENTITY,
  ARTICLE_PAGE,
  type ArticleRow,
  codeTaken,
  findArticle,
  findArticleRow,
  insertArticle,
  listVisibleArticles,
  updateArticle,
} from './repository.ts';
import type { CreateArticleBody, UpdateArticleBody } from './schemas.ts';

export type CreateArticleInput = WithCustomFields<Static<typeof CreateArticleBody>>;
export type UpdateArticleInput = WithCustomFields<Static<typeof UpdateArticleBody>>;

export { ARTICLE_PAGE };

export type ArticleListQuery = PageQuery & {
  search?: string;
  companyId?: string;
  briefElementId?: string;
  enabled?: boolean;
  createdBy?: string;
  externalId?: string;
  stocked?: boolean;
};

const snapshotOf = (row: ArticleRow) => ({ ...row });

export function createArticleService(ctx: Pick<AppContext, 'db' | 'change' | 'registry'>) {
  const duplicateCode = (code: string) =>
    new AppError('duplicate_code', `An article with code "${code}" already exists in this organisation`);

  /** Resolves the brief element of a payload (link modes 1 and 2); undefined when not sent. */
  async function resolveBriefElement(
    tx: Tx,
    actor: Actor,
    input: { briefElementId?: string | null; briefElement?: BriefElementInput },
    record: EventRecorder,
  ): Promise<string | null | undefined> {
    if (input.briefElementId !== undefined && input.briefElement !== undefined) {
      throw badRequest(
        'Send either briefElementId (an existing element) or briefElement (a new one), not both',
        [{ pointer: '/briefElement', message: 'cannot be sent together with briefElementId', in: 'body' }],
      );
    }
    const linker = briefElementLinkerOf(ctx);
    if (input.briefElement !== undefined) {
      const element = await linker.createStandalone(tx, actor, input.briefElement, record);
      return element.id;
    }
    if (input.briefElementId) {
      if (!(await linker.exists(tx, actor.organisationId, input.briefElementId))) {
        throw unprocessableBriefElement();
      }
    }
    return input.briefElementId;
  }

  async function read(actor: Actor, id: string) {
    const article = await findArticle(ctx.db, actor.organisationId, id);
    if (!article) throw notFound('Article');
    assertCompanyVisible(actor, article.companyId, 'Article');
    return article;
  }

  return {
    get: read,

    async list(actor: Actor, query: ArticleListQuery) {
      const page = resolvePage(query, ARTICLE_PAGE);
      const { rows, total } = await listVisibleArticles(
        ctx.db,
        actor,
        {
          companyId: query.companyId,
          briefElementId: query.briefElementId,
          enabled: query.enabled,
          createdById: query.createdBy,
          externalId: query.externalId,
          stocked: query.stocked,
          search: query.search?.trim() || undefined,
        },
        page,
      );
      return pageResult(rows, total, page);
    },

    async create(actor: Actor, input: CreateArticleInput) {
      assertCompanyWritable(actor, input.companyId);
      const id = await ctx.change(actor, async (tx, record) => {
        const org = actor.organisationId;
        await liveCompany(tx, org, input.companyId);
        if (input.currencyId) await liveCurrency(tx, org, input.currencyId);
        if (await codeTaken(tx, org, input.code)) throw duplicateCode(input.code);
        const customFields = await validateCustomFields(tx, org, 'article', input.customFields);
        if (input.createdById) await liveStaffUsers(tx, org, [input.createdById], () => '/createdById');
        // A new article has no file yet: no preview can be one of its files.
        if (input.previewFileId) throw unprocessablePreview('/previewFileId');
        const briefElementId = await resolveBriefElement(tx, actor, input, record);
        const row = await insertArticle(tx, {
          organisationId: org,
          companyId: input.companyId,
          name: input.name,
          code: input.code,
          description: input.description ?? null,
          price: input.price == null ? null : roundUnitPrice(input.price),
          stocked: input.stocked ?? false,
          quantity: input.quantity ?? 0,
          unit: input.unit ?? null,
          enabled: input.enabled ?? true,
          externalId: input.externalId ?? null,
          currencyId: input.currencyId ?? null,
          briefElementId: briefElementId ?? null,
          customFields,
          createdById: input.createdById ?? actor.userId,
          ...(input.createdAt ? { createdAt: new Date(input.createdAt) } : {}),
        });
        await record({ on: ARTICLE_ENTITY, type: 'CREATE', entityId: row.id, snapshot: snapshotOf(row) });
        return row.id;
      });
      return read(actor, id);
    },

    async update(actor: Actor, id: string, input: UpdateArticleInput) {
      await ctx.change(actor, async (tx, record) => {
        const org = actor.organisationId;
        const current = await findArticleRow(tx, org, id);
        if (!current) throw notFound('Article');
        assertCompanyVisible(actor, current.companyId, 'Article');
        assertCompanyWritable(actor, current.companyId);
        const changes: Partial<ArticleRow> = {};
        if (input.companyId !== undefined && input.companyId !== current.companyId) {
          assertCompanyWritable(actor, input.companyId);
          await liveCompany(tx, org, input.companyId);
          changes.companyId = input.companyId;
        }
        if (input.currencyId) await liveCurrency(tx, org, input.currencyId);
        if (input.currencyId !== undefined) changes.currencyId = input.currencyId;
        if (input.code !== undefined && input.code !== current.code) {
          if (await codeTaken(tx, org, input.code, id)) throw duplicateCode(input.code);
          changes.code = input.code;
        }
        for (const key of [
          'name',
          'description',
          'stocked',
          'quantity',
          'unit',
          'enabled',
          'externalId',
        ] as const) {
          if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = input[key];
        }
        if (input.price !== undefined)
          changes.price = input.price === null ? null : roundUnitPrice(input.price);
        if (input.customFields !== undefined) {
          changes.customFields = await validateCustomFields(
            tx,
            org,
            'article',
            input.customFields,
            current.customFields,
          );
        }
        const briefElementId = await resolveBriefElement(tx, actor, input, record);
        if (briefElementId !== undefined) changes.briefElementId = briefElementId;
        if (input.createdById !== undefined && input.createdById !== current.createdById) {
          await liveStaffUsers(tx, org, [input.createdById], () => '/createdById');
          changes.createdById = input.createdById;
        }
        if (input.createdAt !== undefined) changes.createdAt = new Date(input.createdAt);
        if (input.previewFileId !== undefined && input.previewFileId !== current.previewFileId) {
          if (
            input.previewFileId &&
            !(await findFile(tx, org, input.previewFileId, { entity: 'article', entityId: id }))
          ) {
            throw unprocessablePreview('/previewFileId');
          }
          changes.previewFileId = input.previewFileId;
        }

        const row = await updateArticle(tx, id, { ...changes, updatedAt: new Date() });
        await record({
          on: ARTICLE_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: snapshotOf(row),
          updatedColumns: changedFields(current, row),
        });
      });
      return read(actor, id);
    },

    async remove(actor: Actor, id: string) {
      await ctx.change(actor, async (tx, record) => {
        const current = await findArticleRow(tx, actor.organisationId, id);
        if (!current) throw notFound('Article');
        assertCompanyVisible(actor, current.companyId, 'Article');
        assertCompanyWritable(actor, current.companyId);
        const row = await updateArticle(tx, id, { deletedAt: new Date() });
        await record({ on: ARTICLE_ENTITY, type: 'DELETE', entityId: id, snapshot: snapshotOf(row) });
      });
      return { id, deleted: true as const };
    },

    /** Throws 404 unless the article is live, of the actor's organisation and visible to it. */
    async assertVisible(actor: Actor, id: string) {
      const row = await findArticleRow(ctx.db, actor.organisationId, id);
      if (!row) throw notFound('Article');
      assertCompanyVisible(actor, row.companyId, 'Article');
    },

    /** Sets (or clears) the preview image; the file must be a live file of this article. */
    async setPreview(actor: Actor, id: string, fileId: string | null) {
      await ctx.change(actor, async (tx, record) => {
        const current = await findArticleRow(tx, actor.organisationId, id);
        if (!current) throw notFound('Article');
        assertCompanyVisible(actor, current.companyId, 'Article');
        assertCompanyWritable(actor, current.companyId);
        if (
          fileId &&
          !(await findFile(tx, actor.organisationId, fileId, { entity: 'article', entityId: id }))
        ) {
          throw unprocessablePreview();
        }
        const row = await updateArticle(tx, id, { previewFileId: fileId, updatedAt: new Date() });
        await record({
          on: ARTICLE_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: snapshotOf(row),
          updatedColumns: ['previewFileId'],
        });
      });
      return read(actor, id);
    },
  };
}

const unprocessableBriefElement = () => invalidReference('/briefElementId', 'brief element');

const unprocessablePreview = (pointer = '/fileId') =>
  new AppError('invalid_reference', 'The preview must be a file attached to this article', {
    issues: [{ pointer, message: 'is not a live file of this article', in: 'body' }],
  });

export type ArticleService = ReturnType<typeof createArticleService>;
