import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { type Actor, assertCompanyVisible, isCompanyScoped } from '../../platform/actor.ts';
import { parseCrudQuery } from '../../platform/crud-query.ts';
import { type CrudQueryString, crudParams } from '../../platform/crud-search.ts';
import { AppError, badRequest, notFound, type ProblemIssue } from '../../platform/errors.ts';
import { changedFields } from '../../platform/events.ts';
import type { IdsPage } from '../../platform/list-paging.ts';
import { type PageQuery, resolvePage } from '../../platform/pagination.ts';
import { liveCurrency, liveStaffUsers } from '../../platform/references.ts';
import { checkVatNumber } from '../../platform/vat-numbers.ts';
import { validateCustomFields } from '../custom-fields/validate.ts';
import { addCompanyLinks } from '../users/repository.ts';
import {
  ancestorsOf,
  archiveCompany,
  COMPANY_CRUD_FIELDS,
  COMPANY_ENTITY,
  COMPANY_PAGE,
  COMPANY_SEARCH_ORDER,
  companiesByIds,
  companyExternalIdTaken,
  findCompany,
  findVisibleCompany,
  hasLiveChildren,
  insertCompany,
  listCompanyIdsPage,
  lockCompanyTree,
  searchCompanyIds,
  searchCompanyPage,
  updateCompany,
} from './repository.ts';
import type { CreateCompany, UpdateCompany } from './schemas.ts';

export { COMPANY_PAGE };

export const COMPANY_SEARCH = { defaultLimit: 25, maxLimit: 100 };

/** Filters of GET /companies/pagination (HIPE's node sends more; they are accepted and ignored). */
export type CompanyListFilters = {
  after?: string;
  search?: string;
  parentId?: string;
  manager?: string;
  createdBy?: string;
  start?: string;
  end?: string;
};

const externalIdConflict = () =>
  new AppError('external_id_taken', 'A company with this externalId already exists in the organisation');

const parentNotFound = () =>
  new AppError('parent_not_found', 'The parent company does not exist', {
    issues: [{ pointer: '/parentId', message: 'is not a company of the organisation', in: 'body' }],
  });

type CompanyVat = { vatNumber: string | null; vatExempt: boolean; vatExemptionReason: string | null };

/**
 * The VAT fields a create or update leaves: the number checked (platform/vat-numbers.ts), an
 * exemption only with its reason (400 otherwise; the reason is printed on the quotes). Clearing
 * the exemption keeps no reason.
 */
function checkCompanyVat(
  input: { vatNumber?: string | null; vatExempt?: boolean; vatExemptionReason?: string | null },
  current: CompanyVat,
): Partial<CompanyVat> {
  const issues: ProblemIssue[] = [];
  const out: Partial<CompanyVat> = {};
  if (input.vatNumber !== undefined) {
    const trimmed = input.vatNumber?.trim();
    if (!trimmed) out.vatNumber = null;
    else {
      const checked = checkVatNumber(trimmed);
      if ('error' in checked) issues.push({ pointer: '/vatNumber', message: checked.error, in: 'body' });
      else out.vatNumber = checked.value;
    }
  }
  if (input.vatExempt !== undefined) out.vatExempt = input.vatExempt;
  if (input.vatExemptionReason !== undefined)
    out.vatExemptionReason = input.vatExemptionReason?.trim() || null;
  const exempt = out.vatExempt ?? current.vatExempt;
  if (exempt) {
    const reason = out.vatExemptionReason !== undefined ? out.vatExemptionReason : current.vatExemptionReason;
    if (!reason) {
      issues.push({
        pointer: '/vatExemptionReason',
        message: 'is required when vatExempt is true',
        in: 'body',
      });
    }
  } else if (input.vatExempt === false) {
    out.vatExemptionReason = null;
  }
  if (issues.length) throw badRequest('The VAT fields are not valid', issues);
  return out;
}

/**
 * The page envelope. `totalIsExact: false` is sent only when the count was capped: clients of the
 * crud envelope (HIPE's node) compare its meta as it always was.
 */
function countedPage<T>(
  data: T[],
  found: IdsPage,
  request: { page?: number; limit: number },
  { withCursor }: { withCursor: boolean },
) {
  const meta = {
    page: request.page ?? 1,
    limit: request.limit,
    total: found.total,
    hasNextPage: found.hasNextPage,
    ...(withCursor ? { nextCursor: found.nextCursor } : {}),
  };
  return { data, meta: found.totalIsExact ? meta : { ...meta, totalIsExact: false } };
}

export function createCompanyService(ctx: Pick<AppContext, 'db' | 'change'>) {
  const { db } = ctx;
  const readCompanies = (ids: string[]) => companiesByIds(db, ids);

  /** The parent must be a live company the actor may see, and must not be the company or below it. */
  async function checkParent(tx: Executor, actor: Actor, parentId: string, companyId?: string) {
    if (parentId === companyId) {
      throw new AppError('company_cycle', 'A company cannot be its own parent', {
        issues: [{ pointer: '/parentId', message: 'is the company itself', in: 'body' }],
      });
    }
    await lockCompanyTree(tx, actor.organisationId);
    const parent = await findVisibleCompany(tx, actor, parentId);
    if (!parent) throw parentNotFound();
    if (companyId) {
      const ancestors = await ancestorsOf(tx, actor.organisationId, parentId);
      if (ancestors.includes(companyId)) {
        throw new AppError('company_cycle', 'The parent is a descendant of this company', {
          issues: [{ pointer: '/parentId', message: 'would make the hierarchy a cycle', in: 'body' }],
        });
      }
    }
  }

  /** The users and currency a company names must be live records of the organisation (422). */
  async function checkReferences(
    tx: Executor,
    actor: Actor,
    input: { managedById?: string | null; collaboratorIds?: string[]; currencyId?: string | null },
  ) {
    if (input.managedById)
      await liveStaffUsers(tx, actor.organisationId, [input.managedById], () => '/managedById');
    if (input.collaboratorIds?.length) {
      await liveStaffUsers(tx, actor.organisationId, input.collaboratorIds, (i) => `/collaboratorIds/${i}`);
    }
    if (input.currencyId) await liveCurrency(tx, actor.organisationId, input.currencyId);
  }

  return {
    async get(actor: Actor, id: string) {
      const company = await findVisibleCompany(db, actor, id);
      if (!company) throw notFound('Company');
      return company;
    },

    create(actor: Actor, input: CreateCompany) {
      return ctx.change(actor, async (tx, record) => {
        if (input.parentId) await checkParent(tx, actor, input.parentId);
        await checkReferences(tx, actor, input);
        if (input.externalId && (await companyExternalIdTaken(tx, actor.organisationId, input.externalId))) {
          throw externalIdConflict();
        }
        const vat = checkCompanyVat(input, { vatNumber: null, vatExempt: false, vatExemptionReason: null });
        const customFields = await validateCustomFields(
          tx,
          actor.organisationId,
          'company',
          input.customFields,
        );
        const company = await insertCompany(tx, {
          organisationId: actor.organisationId,
          name: input.name,
          externalId: input.externalId ?? null,
          parentId: input.parentId ?? null,
          email: input.email ?? null,
          phoneNumber: input.phoneNumber ?? null,
          website: input.website ?? null,
          ...vat,
          managedById: input.managedById ?? null,
          collaboratorIds: input.collaboratorIds ?? [],
          currencyId: input.currencyId ?? null,
          customFields,
          enabled: input.enabled ?? true,
          createdById: actor.userId,
          ...(input.createdAt ? { createdAt: new Date(input.createdAt), updatedAt: new Date() } : {}),
        });
        // A company-scoped creator is linked to its new company, or it could not see it.
        if (isCompanyScoped(actor))
          await addCompanyLinks(tx, actor.organisationId, actor.userId, [company.id]);
        await record({ on: COMPANY_ENTITY, type: 'CREATE', entityId: company.id, snapshot: company });
        return company;
      });
    },

    update(actor: Actor, id: string, input: UpdateCompany) {
      return ctx.change(actor, async (tx, record) => {
        const current = await findCompany(tx, actor.organisationId, id);
        if (!current) throw notFound('Company');
        assertCompanyVisible(actor, current.id, 'Company');
        if (input.parentId && input.parentId !== current.parentId)
          await checkParent(tx, actor, input.parentId, id);
        await checkReferences(tx, actor, input);
        if (
          input.externalId &&
          input.externalId !== current.externalId &&
          (await companyExternalIdTaken(tx, actor.organisationId, input.externalId, id))
        ) {
          throw externalIdConflict();
        }
        const customFields = await validateCustomFields(
          tx,
          actor.organisationId,
          'company',
          input.customFields,
          current.customFields,
        );
        const vat = checkCompanyVat(input, current);
        const { customFields: _ignored, createdAt, ...rest } = input;
        const fields = { ...rest, ...vat, ...(createdAt ? { createdAt: new Date(createdAt) } : {}) };
        const next = { ...current, ...fields, customFields };
        const changed = changedFields(current, next);
        if (changed.length === 0) return current;
        const company = await updateCompany(tx, actor.organisationId, id, {
          ...fields,
          customFields,
          updatedAt: new Date(),
        });
        await record({
          on: COMPANY_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: company,
          updatedColumns: changed,
        });
        return company!;
      });
    },

    /** Soft delete. A company with live child companies is refused (409): re-parent or archive them first. */
    archive(actor: Actor, id: string) {
      return ctx.change(actor, async (tx, record) => {
        const current = await findCompany(tx, actor.organisationId, id);
        if (!current) throw notFound('Company');
        assertCompanyVisible(actor, current.id, 'Company');
        await lockCompanyTree(tx, actor.organisationId);
        if (await hasLiveChildren(tx, actor.organisationId, id)) {
          throw new AppError(
            'company_has_children',
            'The company has child companies: archive or re-parent them first',
          );
        }
        const company = await archiveCompany(tx, actor.organisationId, id);
        if (!company) throw notFound('Company');
        await record({ on: COMPANY_ENTITY, type: 'DELETE', entityId: id, snapshot: company });
        return company;
      });
    },

    /** The @nestjsx/crud grammar: a plain array, or the page envelope when `page` is given. */
    async search(actor: Actor, { after, ...query }: CrudQueryString) {
      // HIPE's node sends its search box as `s` as it is: "" (no filter) or plain text (a
      // "contains" on name or externalId); JSON objects are the crud grammar.
      const text = query.s?.trim();
      if (query.s !== undefined && !text?.startsWith('{')) {
        const { s: _s, ...rest } = query;
        const contains = { $or: [{ name: { $contL: text } }, { externalId: { $contL: text } }] };
        query = text ? { ...rest, s: JSON.stringify(contains) } : rest;
      }
      const crud = parseCrudQuery(crudParams(query), {
        fields: COMPANY_CRUD_FIELDS,
        ...COMPANY_SEARCH,
        defaultSort: COMPANY_SEARCH_ORDER,
      });
      if (after && crud.orderBy !== COMPANY_SEARCH_ORDER) {
        throw badRequest('after continues the default order (name, then id): send no sort with it', [
          { pointer: '/after', message: 'needs the default sort', in: 'query' },
        ]);
      }
      // No envelope, no count: the window's ids, then its rows.
      if (!crud.page) return readCompanies(await searchCompanyIds(db, actor, crud, after));
      const found = await searchCompanyPage(db, actor, crud, after);
      return countedPage(await readCompanies(found.ids), found, crud, { withCursor: Boolean(after) });
    },

    async paginate(actor: Actor, query: PageQuery & CompanyListFilters) {
      const page = resolvePage(query, COMPANY_PAGE);
      const found = await listCompanyIdsPage(
        db,
        actor,
        {
          search: query.search,
          parentId: query.parentId,
          managedById: query.manager,
          createdById: query.createdBy,
          createdFrom: query.start ? new Date(query.start) : undefined,
          createdUntil: query.end ? new Date(query.end) : undefined,
        },
        page,
        query.after,
      );
      return countedPage(await readCompanies(found.ids), found, page, { withCursor: true });
    },
  };
}

export type CompanyService = ReturnType<typeof createCompanyService>;
