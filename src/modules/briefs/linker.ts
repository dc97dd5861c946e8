/**
 * The articles' access to brief elements (modules/articles/brief-element-linker.ts): whether an
 * element exists, and the creation of a standalone element from an article's nested
 * `briefElement`, validated with the element schema and priced when it has enough data.
 */
import { FormatRegistry, TypeRegistry } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { v7 as uuidv7 } from 'uuid';
import type { Executor, Tx } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, badRequest, type ProblemIssue } from '../../platform/errors.ts';
import type { EventRecorder } from '../../platform/events.ts';
import type { Catalogue } from '../../pricing/index.ts';
import type { BriefElementLinker } from '../articles/brief-element-linker.ts';
import { loadCatalogue } from '../catalogue/loader.ts';
import { type ElementValues, elementValues, engineBrief, isPriceable, presentElement } from './mapping.ts';
import { insertPredictionSummary } from './prediction-repository.ts';
import { checkElementStructure, elementPrice, predictionRow, priceOrRefuse } from './prediction-writes.ts';
import { presentSummary } from './presenters.ts';
import {
  BRIEF_ELEMENT_ENTITY,
  BRIEF_PREDICTION_ENTITY,
  insertElement,
  liveElementExists,
} from './repository.ts';
import { type StandaloneElementBody, StandaloneElementSchema } from './schemas.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID.test(value));
// StringEnum is a TypeBox `Unsafe` schema (a plain JSON Schema enum) that the compiler must be taught.
if (!TypeRegistry.Has('Unsafe')) {
  TypeRegistry.Set('Unsafe', (schema: { enum?: unknown[]; type?: string }, value) =>
    schema.enum ? schema.enum.includes(value) : schema.type === undefined || typeof value === schema.type,
  );
}

const standalone = TypeCompiler.Compile(StandaloneElementSchema);
const BASE = '/briefElement';

/** The schema's errors under `/briefElement`, one per pointer. */
function schemaIssues(input: unknown, base: string): ProblemIssue[] {
  const seen = new Map<string, ProblemIssue>();
  for (const error of standalone.Errors(input)) {
    const pointer = `${base}${error.path}`;
    const allowed = (error.schema as { enum?: unknown[] }).enum;
    const message = allowed ? `must be one of: ${allowed.join(', ')}` : error.message.toLowerCase();
    if (!seen.has(pointer)) seen.set(pointer, { pointer, message, in: 'body' });
  }
  return [...seen.values()];
}

/** An element too incomplete to price still names only records of the catalogue (422). */
function checkReferences(values: ElementValues, catalogue: Catalogue, base: string) {
  const lists: [keyof ElementValues, { id: string }[], string][] = [
    ['productCategoryId', catalogue.productCategories, 'product category'],
    ['productId', catalogue.products, 'product'],
    ['matterId', catalogue.matters, 'matter'],
    ['materialTypeId', catalogue.materialTypes, 'material type'],
    ['materialReferenceId', catalogue.materialReferences, 'material reference'],
    ['corrugatedMaterialId', catalogue.corrugatedMaterials, 'corrugated composition'],
  ];
  const issues: ProblemIssue[] = [];
  for (const [field, list, what] of lists) {
    const id = values[field];
    if (typeof id === 'string' && !list.some((record) => record.id === id)) {
      issues.push({ pointer: `${base}/${field}`, message: `is not a ${what} of the catalogue`, in: 'body' });
    }
  }
  (values.layoutCounts ?? []).forEach((tool, i) => {
    if (!catalogue.machines.some((m) => m.id === tool.machineId)) {
      issues.push({
        pointer: `${base}/layoutCounts/${i}/machineId`,
        message: 'is not a machine of the catalogue',
        in: 'body',
      });
    }
  });
  if (issues.length)
    throw new AppError('invalid_brief', 'The brief element names unknown catalogue records', { issues });
}

/**
 * Validates a standalone element's payload (pointers under `base`), and prices it when it has
 * enough data (else checks that it names only catalogue records): its column values and its
 * prediction row, not yet written.
 */
export async function standaloneValues(
  tx: Executor,
  actor: Actor,
  input: unknown,
  id: string,
  at: Date,
  base = BASE,
) {
  const issues = schemaIssues(input, base);
  if (issues.length) throw badRequest('The brief element is not valid', issues);
  const body = input as StandaloneElementBody;
  checkElementStructure([{ position: 0, decorationsCount: body.decorationsCount }], () => base);
  const values = elementValues(body);
  let prediction: ReturnType<typeof predictionRow> | undefined;
  const catalogue = await loadCatalogue(tx, actor.organisationId);
  if (isPriceable(values)) {
    const engineInput = engineBrief(
      {
        name: '',
        packingType: 'SHIPPING_CASE',
        palletType: 'EURO',
        deliveryZoneId: null,
        commercialMargin: null,
      },
      [values],
    );
    delete engineInput.name;
    const output = priceOrRefuse(engineInput, catalogue, [0], base);
    prediction = predictionRow(
      { briefId: null, briefElementId: id },
      actor.organisationId,
      1,
      1,
      engineInput,
      output,
      actor.userId,
      at,
    );
    Object.assign(values, elementPrice(output, 0, prediction.id, at));
  } else {
    checkReferences(values, catalogue, base);
    Object.assign(values, { unitPrice: null, totalPrice: null, predictionId: null, pricedAt: null });
  }
  return { values, prediction };
}

/** Stores a standalone element's new prediction and records its event. */
export async function storeStandalonePrediction(
  tx: Tx,
  prediction: ReturnType<typeof predictionRow>,
  elementId: string,
  record: EventRecorder,
) {
  const stored = await insertPredictionSummary(tx, prediction);
  await record({
    on: BRIEF_PREDICTION_ENTITY,
    type: 'CREATE',
    entityId: prediction.id,
    snapshot: presentSummary(stored),
    relation: BRIEF_ELEMENT_ENTITY,
    relationId: elementId,
    process: 'PREDICTION',
  });
}

export function createBriefElementLinker(): BriefElementLinker {
  return {
    exists: (tx, organisationId, id) => liveElementExists(tx, organisationId, id),

    async createStandalone(tx, actor, input, record, base = BASE) {
      const id = uuidv7();
      const at = new Date();
      const { values, prediction } = await standaloneValues(tx, actor, input, id, at, base);
      const row = await insertElement(tx, {
        ...values,
        id,
        organisationId: actor.organisationId,
        briefId: null,
        createdById: actor.userId,
        createdAt: at,
        updatedAt: at,
      });
      await record({
        on: BRIEF_ELEMENT_ENTITY,
        type: 'CREATE',
        entityId: id,
        snapshot: presentElement(row, prediction?.currency ?? null),
      });
      if (prediction) await storeStandalonePrediction(tx, prediction, id, record);
      return { id };
    },
  };
}
