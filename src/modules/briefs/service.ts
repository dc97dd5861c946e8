import { v7 as uuidv7 } from 'uuid';
import type { Db, Executor } from '../../db/client.ts';
import {
  type Actor,
  assertCompanyVisible,
  assertCompanyWritable,
  isCompanyScoped,
} from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { type ChangeRunner, changedFields } from '../../platform/events.ts';
import { invalidReference, liveCompany } from '../../platform/references.ts';
import {
  analyseValue,
  type BriefPrediction,
  renderDieLineSvg,
  renderImpositionSvg,
  type ValueAnalysis,
} from '../../pricing/index.ts';
import { loadCatalogue } from '../catalogue/loader.ts';

/** An estimate without its value analysis: presented with none (the fields are then left out). */
const NO_ANALYSIS: ValueAnalysis = { currency: '', totalPrice: 0, elements: [], bestSaving: null };

import { findLiveStatus } from '../statuses/repository.ts';
import { createBriefList } from './list.ts';
import {
  type BriefRow,
  briefCode,
  changedSpecFields,
  type ElementRow,
  type ElementValues,
  elementValues,
  elementValuesOf,
  engineBrief,
  presentElement,
} from './mapping.ts';
import { createPredictionViews, predictionNotAvailable } from './prediction-views.ts';
import {
  applyBriefPrediction,
  checkElementStructure,
  completedColumns,
  elementPrice,
  engineOrder,
  predictionRow,
  priceOrRefuse,
  validateOrRefuse,
} from './prediction-writes.ts';
import {
  presentBrief,
  presentListItem,
  presentPanel,
  presentSummary,
  type Refs,
  variantsOf,
} from './presenters.ts';
import { elementsChanged, type Reconciled, reconcileElements } from './reconcile.ts';
import {
  allocateCodeNumber,
  BRIEF_ELEMENT_ENTITY,
  BRIEF_ENTITY,
  BRIEF_PREDICTION_ENTITY,
  elementLinkedToCompanies,
  findBriefRow,
  findBriefWithRefs,
  findElementRow,
  findLiveProjectWithCompany,
  findPredictionSummary,
  insertBriefWithElements,
  insertElement,
  liveElementsOf,
  nextVersion,
  type PredictionSummaryRow,
  softDeleteLiveElementsOf,
  updateBrief,
  updateElement,
} from './repository.ts';
import type { CreateBrief, UpdateBrief } from './schemas.ts';

export { BRIEF_COUNT_CAP, BRIEF_PAGE, type BriefListQuery } from './list.ts';
export { predictionNotAvailable };

/** The pricing fields of a brief: a change of one re-prices it. */
const PRICING_FIELDS = ['packingType', 'palletType', 'deliveryZoneId', 'commercialMargin'] as const;

export type BriefServiceOptions = {
  /** Queues the background pricing of a brief (POST /briefs/async). */
  enqueue: (brief: { id: string; organisationId: string; revision: number }) => Promise<void>;
  countCap?: number;
};

export function createBriefService({
  db,
  change,
  enqueue,
  countCap,
}: { db: Db; change: ChangeRunner } & BriefServiceOptions) {
  /**
   * The brief's company and project after a change (with their names): 422 for unknown ids,
   * 403 for a company out of a scoped actor's reach.
   */
  async function resolveOwner(
    tx: Executor,
    actor: Actor,
    input: { projectId?: string | null; companyId?: string },
    current?: { projectId: string | null; companyId: string },
  ): Promise<{ companyId: string; project: Refs['project']; company: Refs['company'] }> {
    const org = actor.organisationId;
    const projectId = input.projectId === undefined ? (current?.projectId ?? null) : input.projectId;
    if (projectId) {
      const found = await findLiveProjectWithCompany(tx, org, projectId);
      if (!found) throw invalidReference('/projectId', 'project');
      const companyId = input.companyId ?? (input.projectId === undefined ? current?.companyId : undefined);
      if (companyId && companyId !== found.project.companyId) {
        throw new AppError(
          'project_company_mismatch',
          'The project belongs to another company than the brief',
          {
            issues: [
              {
                pointer: '/projectId',
                message: 'is a project of another company than companyId',
                in: 'body',
              },
            ],
          },
        );
      }
      assertCompanyWritable(actor, found.project.companyId);
      return { companyId: found.project.companyId, project: found.project, company: found.company };
    }
    const companyId = input.companyId ?? current?.companyId;
    if (!companyId) {
      throw badRequest('A brief belongs to a project or directly to a company: send projectId or companyId', [
        { pointer: '/companyId', message: 'is required when projectId is not given', in: 'body' },
      ]);
    }
    assertCompanyWritable(actor, companyId);
    const company = await liveCompany(tx, org, companyId);
    return { companyId, project: null, company };
  }

  async function checkStatus(tx: Executor, actor: Actor, statusId: string | null | undefined) {
    if (!statusId) return null;
    const status = await findLiveStatus(tx, actor.organisationId, 'brief', statusId);
    if (!status) throw invalidReference('/statusId', 'brief status');
    // What a brief shows of its status (its answer and its event snapshots).
    return { id: status.id, internalLabel: status.internalLabel, externalLabel: status.externalLabel };
  }

  /** Reads a brief the actor may see (404 otherwise). */
  async function visible(actor: Actor, id: string) {
    const found = await findBriefWithRefs(db, actor.organisationId, id);
    if (!found) throw notFound('Brief');
    assertCompanyVisible(actor, found.brief.companyId, 'Brief');
    return found;
  }

  async function read(actor: Actor, id: string) {
    const found = await visible(actor, id);
    const [elements, prediction] = await Promise.all([
      liveElementsOf(db, id),
      found.brief.currentPredictionId ? findPredictionSummary(db, found.brief.currentPredictionId) : null,
    ]);
    return presentBrief(found.brief, found, elements, prediction);
  }

  /** Element rows of a create or replace, with their engine positions. */
  function valuesOf(elements: CreateBrief['briefElements']): ElementValues[] {
    return elements.map((element) => elementValues(element));
  }

  return {
    get: read,

    /**
     * POST /briefs/estimate: the same checks and pricing as POST /briefs on an unsaved brief, with
     * its drawings; nothing is written (no code allocated, no event). The value analysis (quantity
     * curves, price breaks, cost shares, savings: about nine tenths of the work) only with
     * `withAnalysis` (`?include=analysis`), so that a configurator's keystroke prices the brief
     * alone and asks for the savings once the price is shown (issue 31).
     */
    async estimate(actor: Actor, input: CreateBrief, withAnalysis = false) {
      checkElementStructure(input.briefElements);
      if (input.companyId) assertCompanyWritable(actor, input.companyId);
      const [, , catalogue] = await Promise.all([
        resolveOwner(db, actor, input),
        checkStatus(db, actor, input.statusId),
        loadCatalogue(db, actor.organisationId),
      ]);
      const values = valuesOf(input.briefElements);
      const fields = {
        name: input.name ?? 'Estimate',
        packingType: input.packingType ?? ('SHIPPING_CASE' as const),
        palletType: input.palletType ?? ('EURO' as const),
        deliveryZoneId: input.deliveryZoneId ?? null,
        commercialMargin: input.commercialMargin ?? null,
      };
      const engineInput = engineBrief(fields, values);
      const output = priceOrRefuse(engineInput, catalogue, engineOrder(input.briefElements));
      const analysis = withAnalysis ? analyseValue(engineInput, catalogue) : null;
      const {
        briefId: _b,
        code: _c,
        name: _n,
        version: _v,
        predictionId: _p,
        pricedAt: _t,
        quantityCurve,
        optimisations: _o,
        ...panel
      } = presentPanel(
        { id: '', code: '', name: fields.name },
        { id: '', version: 0, createdAt: new Date(), output },
        analysis ?? NO_ANALYSIS,
      );
      const elements = panel.elements.map(({ quantityCurve: elementCurve, nextPriceBreak, ...element }) => {
        const computed = output.briefComputed.briefElements.find((e) => e.position === element.position)!;
        const variants = variantsOf(output, element.position);
        const selected = variants.find((v) => v.selected) ?? variants[0]!;
        const drawn = {
          ...element,
          dieLineSvg: renderDieLineSvg(computed.dieLine),
          dieLine: computed.dieLine,
          impositionSvg: renderImpositionSvg(selected.imposition, computed.dieLine),
          operations: [...selected.operations].sort((a, b) => a.position - b.position),
        };
        if (!analysis) return drawn;
        return {
          ...drawn,
          quantityCurve: elementCurve,
          nextPriceBreak,
          costShares: analysis.elements.find((e) => e.position === element.position)?.costShares ?? [],
        };
      });
      if (!analysis) return { ...panel, elements };
      const optimisations = analysis.elements
        .flatMap((element) =>
          element.optimisations
            .filter((o) => o.applies && (o.totalSaving ?? 0) > 0)
            .map((o) => ({
              position: element.position,
              type: o.type,
              description: o.description,
              totalSaving: o.totalSaving ?? 0,
              savingPercent: o.savingPercent ?? 0,
              changes: o.changes,
            })),
        )
        .sort((a, b) => b.totalSaving - a.totalSaving);
      return { ...panel, quantityCurve, elements, optimisations };
    },

    /**
     * POST /briefs (sync: priced in the request, COMPLETED) and POST /briefs/async (PENDING; a job
     * prices it). The engine's checks run in both, so an invalid brief is refused at once (422).
     */
    async create(actor: Actor, input: CreateBrief, mode: 'sync' | 'async') {
      checkElementStructure(input.briefElements);
      if (input.companyId) assertCompanyWritable(actor, input.companyId);
      const org = actor.organisationId;
      // Checks and pricing first, reading only (no transaction): a refused brief writes nothing
      // and uses no code. The code is then allocated on its own, and the writes follow in one
      // transaction with their events.
      const [owner, status, catalogue] = await Promise.all([
        resolveOwner(db, actor, input),
        checkStatus(db, actor, input.statusId),
        loadCatalogue(db, org),
      ]);
      const values = valuesOf(input.briefElements);
      const order = engineOrder(input.briefElements);
      const fields = {
        name: input.name ?? '',
        packingType: input.packingType ?? ('SHIPPING_CASE' as const),
        palletType: input.palletType ?? ('EURO' as const),
        deliveryZoneId: input.deliveryZoneId ?? null,
        commercialMargin: input.commercialMargin ?? null,
      };
      const engineInput = engineBrief(fields, values);
      let output: BriefPrediction | undefined;
      if (mode === 'sync') output = priceOrRefuse(engineInput, catalogue, order);
      else validateOrRefuse(engineInput, catalogue, order);
      const codeNumber = await allocateCodeNumber(db, org);
      const code = briefCode(codeNumber);
      if (!fields.name) fields.name = `Brief ${code}`;
      engineInput.name = fields.name;

      // The rows are built here, in full, and written by one statement (data-modifying CTEs).
      const at = new Date();
      const briefId = uuidv7();
      const prediction = output
        ? predictionRow({ briefId, briefElementId: null }, org, 1, 1, engineInput, output, actor.userId, at)
        : undefined;
      const row: BriefRow = {
        id: briefId,
        organisationId: org,
        code,
        codeNumber,
        ...fields,
        projectId: owner.project?.id ?? null,
        companyId: owner.companyId,
        statusId: input.statusId ?? null,
        predictionStatus: 'PENDING',
        hasPrice: false,
        failureReason: null,
        predictionAttempts: 0,
        revision: 1,
        currentPredictionId: null,
        currentVersion: null,
        totalPrice: null,
        currency: null,
        pricedAt: null,
        elementsCount: values.length,
        createdById: actor.userId,
        createdAt: at,
        updatedAt: at,
        deletedAt: null,
        ...(prediction ? completedColumns(prediction, at) : {}),
      };
      const elements: ElementRow[] = values
        .map((v) => ({
          ...(v as ElementRow),
          id: uuidv7(),
          organisationId: org,
          briefId,
          unitPrice: null,
          totalPrice: null,
          predictionId: null,
          pricedAt: null,
          createdById: actor.userId,
          createdAt: at,
          updatedAt: at,
          deletedAt: null,
          ...(prediction && output ? elementPrice(output, v.position!, prediction.id, at) : {}),
        }))
        .sort((x, y) => x.position - y.position);
      const stored: PredictionSummaryRow | undefined = prediction
        ? (({ input: _i, output: _o, ...summary }) => summary)(prediction)
        : undefined;
      const refs = { project: owner.project, company: owner.company, status };

      const created = await change(actor, async (tx, record) => {
        await insertBriefWithElements(tx, row, elements, prediction);
        await record({
          on: BRIEF_ENTITY,
          type: 'CREATE',
          entityId: briefId,
          snapshot: presentListItem(row, refs),
        });
        for (const element of elements) {
          await record({
            on: BRIEF_ELEMENT_ENTITY,
            type: 'CREATE',
            entityId: element.id,
            snapshot: presentElement(element, row.currency),
            relation: BRIEF_ENTITY,
            relationId: briefId,
          });
        }
        if (stored) {
          await record({
            on: BRIEF_PREDICTION_ENTITY,
            type: 'CREATE',
            entityId: stored.id,
            snapshot: presentSummary(stored),
            relation: BRIEF_ENTITY,
            relationId: briefId,
            process: 'PREDICTION',
          });
        }
        return presentBrief(row, refs, elements, stored);
      });
      if (mode === 'async') await enqueue({ id: created.id, organisationId: org, revision: 1 });
      return created;
    },

    /**
     * PUT /briefs/:id: changes the fields sent; `briefElements` replaces the elements (matched by
     * id, else by position). A change of what is priced re-prices the brief into a new version.
     */
    async update(actor: Actor, id: string, input: UpdateBrief) {
      if (input.briefElements) checkElementStructure(input.briefElements);
      await change(actor, async (tx, record) => {
        const org = actor.organisationId;
        const current = await findBriefRow(tx, org, id, { forUpdate: true });
        if (!current) throw notFound('Brief');
        assertCompanyVisible(actor, current.companyId, 'Brief');
        assertCompanyWritable(actor, current.companyId);
        const owner =
          input.projectId !== undefined || input.companyId !== undefined
            ? await resolveOwner(tx, actor, input, current)
            : { companyId: current.companyId, project: undefined };
        if (input.statusId !== undefined && input.statusId !== current.statusId) {
          await checkStatus(tx, actor, input.statusId);
        }
        const fields = {
          name: input.name ?? current.name,
          projectId: input.projectId === undefined ? current.projectId : (owner.project?.id ?? null),
          companyId: owner.companyId,
          statusId: input.statusId === undefined ? current.statusId : input.statusId,
          packingType: input.packingType ?? current.packingType,
          palletType: input.palletType ?? current.palletType,
          deliveryZoneId: input.deliveryZoneId === undefined ? current.deliveryZoneId : input.deliveryZoneId,
          commercialMargin:
            input.commercialMargin === undefined ? current.commercialMargin : input.commercialMargin,
        };
        const existing = await liveElementsOf(tx, id);
        let elements = existing;
        const elementChanges: {
          type: 'CREATE' | 'UPDATE' | 'DELETE';
          row: ElementRow;
          columns?: string[];
        }[] = [];
        let replaced: Reconciled[] | undefined;
        if (input.briefElements) replaced = reconcileElements(existing, input.briefElements);
        const specChanged = replaced !== undefined && elementsChanged(existing, replaced);
        const pricingChanged = PRICING_FIELDS.some((f) => input[f] !== undefined && input[f] !== current[f]);
        const reprice = specChanged || pricingChanged || (replaced !== undefined && !current.hasPrice);

        // Price first: a brief the engine refuses changes nothing (422).
        let output: BriefPrediction | undefined;
        let engineInput: ReturnType<typeof engineBrief> | undefined;
        if (reprice) {
          const catalogue = await loadCatalogue(tx, org);
          const values = replaced ? replaced.map((r) => r.values) : existing.map((e) => elementValuesOf(e));
          engineInput = engineBrief(fields, values);
          output = priceOrRefuse(
            engineInput,
            catalogue,
            replaced ? engineOrder(values as { position: number }[]) : existing.map((_, i) => i),
          );
        }

        const at = new Date();
        if (replaced) {
          const kept = new Set(replaced.flatMap((r) => (r.keep ? [r.keep.id] : [])));
          for (const old of existing.filter((e) => !kept.has(e.id))) {
            const row = await updateElement(tx, old.id, { deletedAt: at, updatedAt: at });
            elementChanges.push({ type: 'DELETE', row });
          }
          const next: ElementRow[] = [];
          for (const { values, keep } of replaced) {
            if (keep) {
              const columns = changedSpecFields(keep, values);
              if (columns.length) {
                const row = await updateElement(tx, keep.id, { ...values, updatedAt: at });
                elementChanges.push({ type: 'UPDATE', row, columns });
                next.push(row);
              } else next.push(keep);
            } else {
              const row = await insertElement(tx, {
                ...values,
                organisationId: org,
                briefId: id,
                createdById: actor.userId,
                createdAt: at,
                updatedAt: at,
              });
              elementChanges.push({ type: 'CREATE', row });
              next.push(row);
            }
          }
          elements = next.sort((a, b) => a.position - b.position);
        }

        const extra = {
          ...fields,
          elementsCount: elements.length,
          ...(reprice ? { revision: current.revision + 1, predictionAttempts: 0 } : {}),
        };
        let updated = current;
        let priced: Awaited<ReturnType<typeof applyBriefPrediction>> | undefined;
        if (reprice && output && engineInput) {
          priced = await applyBriefPrediction(tx, record, current, elements, engineInput, output, {
            version: await nextVersion(tx, { briefId: id }),
            createdById: actor.userId,
            extra,
          });
          updated = priced.brief;
          const byId = new Map(priced.elements.map((e) => [e.id, e]));
          elements = elements.map((e) => byId.get(e.id) ?? e);
        } else {
          const changes = changedFields(current, { ...current, ...extra });
          if (changes.length || elementChanges.length) {
            updated = await updateBrief(tx, id, { ...extra, updatedAt: at });
          }
        }
        const updatedColumns = changedFields(current, updated).filter(
          (c) => !['updatedAt', 'pricedAt', 'revision', 'predictionAttempts'].includes(c),
        );
        if (updatedColumns.length || elementChanges.length) {
          const refs: Refs = { project: null };
          await record({
            on: BRIEF_ENTITY,
            type: 'UPDATE',
            entityId: id,
            snapshot: presentListItem(updated, refs),
            updatedColumns,
            updatedRelations: elementChanges.length ? ['briefElements'] : undefined,
            process: priced ? 'PREDICTION' : undefined,
          });
        }
        for (const change of elementChanges) {
          const row = elements.find((e) => e.id === change.row.id) ?? change.row;
          await record({
            on: BRIEF_ELEMENT_ENTITY,
            type: change.type,
            entityId: change.row.id,
            snapshot: presentElement(row, updated.currency),
            relation: BRIEF_ENTITY,
            relationId: id,
            updatedColumns: change.columns,
          });
        }
      });
      return read(actor, id);
    },

    /** Soft-deletes the brief and its elements (their events too); again -> 404. */
    async remove(actor: Actor, id: string) {
      await change(actor, async (tx, record) => {
        const current = await findBriefRow(tx, actor.organisationId, id, { forUpdate: true });
        if (!current) throw notFound('Brief');
        assertCompanyVisible(actor, current.companyId, 'Brief');
        assertCompanyWritable(actor, current.companyId);
        const at = new Date();
        const row = await updateBrief(tx, id, { deletedAt: at, updatedAt: at });
        const elements = await softDeleteLiveElementsOf(tx, id, at);
        await record({
          on: BRIEF_ENTITY,
          type: 'DELETE',
          entityId: id,
          snapshot: presentListItem(row, { project: null }),
        });
        for (const element of elements) {
          await record({
            on: BRIEF_ELEMENT_ENTITY,
            type: 'DELETE',
            entityId: element.id,
            snapshot: presentElement(element, row.currency),
            relation: BRIEF_ENTITY,
            relationId: id,
          });
        }
      });
      return { id, deleted: true as const };
    },

    /**
     * One page of briefs: the page's ids first (an index-only scan of the index matching the
     * sort), then only those rows with their project and company.
     * - The whole organisation (no filter, an unscoped actor): the total is brief_counts' exact
     *   count, read in the same snapshot as the page, and a page past the middle is read from the
     *   far end of the index, so no page skips more than half of the briefs.
     * - Filtered: `total` is exact up to `countCap` matches, else the planner's estimate.
     * - `after` (an id) continues after that brief in the same order (keyset: constant cost at any
     *   depth).
     */
    list: createBriefList({ db, countCap }).list,

    ...createPredictionViews({ db, visible, read }),

    /** GET /api/brief-elements/:id: an element of a visible brief, or a standalone element. */
    async element(actor: Actor, id: string) {
      const row = await findElementRow(db, actor.organisationId, id);
      if (!row) throw notFound('Brief element');
      let currency: string | null = null;
      if (row.briefId) {
        const brief = await findBriefRow(db, actor.organisationId, row.briefId);
        if (!brief) throw notFound('Brief element');
        assertCompanyVisible(actor, brief.companyId, 'Brief element');
        currency = brief.currency;
      } else {
        if (
          isCompanyScoped(actor) &&
          !(await elementLinkedToCompanies(db, actor.organisationId, id, actor.companyIds))
        ) {
          throw notFound('Brief element');
        }
        currency = row.predictionId
          ? ((await findPredictionSummary(db, row.predictionId))?.currency ?? null)
          : null;
      }
      return presentElement(row, currency);
    },
  };
}

export type BriefService = ReturnType<typeof createBriefService>;
