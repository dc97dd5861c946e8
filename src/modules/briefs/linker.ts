/**
 * The articles' access to brief elements (modules/articles/brief-element-linker.ts): whether an
 * element exists, and the creation of a standalone element from an article's nested
 * `briefElement`, validated with the element schema and priced when it has enough data.
 */
import { FormatRegistry, TypeRegistry } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { v7 as uuidv7 } from 'uuid';
import { briefElements, briefPredictions } from '../../db/schema/briefs.ts';
import { badRequest, type ProblemIssue, unprocessable } from '../../platform/errors.ts';
import type { Catalogue } from '../../pricing/index.ts';
import type { BriefElementLinker } from '../articles/brief-element-linker.ts';
import { loadCatalogue } from '../catalogue/loader.ts';
import { type ElementValues, elementValues, engineBrief, isPriceable, presentElement } from './mapping.ts';
import { presentSummary } from './presenters.ts';
import { checkElementStructure, elementPrice, predictionRow, priceOrRefuse } from './pricing.ts';
import {
  BRIEF_ELEMENT_ENTITY,
  BRIEF_PREDICTION_ENTITY,
  liveElementExists,
  predictionSummaryColumns,
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
function schemaIssues(input: unknown): ProblemIssue[] {
  const seen = new Map<string, ProblemIssue>();
  for (const error of standalone.Errors(input)) {
    const pointer = `${BASE}${error.path}`;
    const allowed = (error.schema as { enum?: unknown[] }).enum;
    const message = allowed ? `must be one of: ${allowed.join(', ')}` : error.message.toLowerCase();
    if (!seen.has(pointer)) seen.set(pointer, { pointer, message, in: 'body' });
  }
  return [...seen.values()];
}

/** An element too incomplete to price still names only records of the catalogue (422). */
function checkReferences(values: ElementValues, catalogue: Catalogue) {
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
      issues.push({ pointer: `${BASE}/${field}`, message: `is not a ${what} of the catalogue`, in: 'body' });
    }
  }
  (values.layoutCounts ?? []).forEach((tool, i) => {
    if (!catalogue.machines.some((m) => m.id === tool.machineId)) {
      issues.push({
        pointer: `${BASE}/layoutCounts/${i}/machineId`,
        message: 'is not a machine of the catalogue',
        in: 'body',
      });
    }
  });
  if (issues.length)
    throw unprocessable('The brief element names unknown catalogue records', 'invalid_brief', issues);
}

export function createBriefElementLinker(): BriefElementLinker {
  return {
    exists: (tx, organisationId, id) => liveElementExists(tx, organisationId, id),

    async createStandalone(tx, actor, input, record) {
      const issues = schemaIssues(input);
      if (issues.length) throw badRequest('The brief element is not valid', issues);
      const body = input as StandaloneElementBody;
      checkElementStructure([{ position: 0, decorationsCount: body.decorationsCount }], () => BASE);
      const values = elementValues(body);
      const id = uuidv7();
      const at = new Date();
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
        const output = priceOrRefuse(engineInput, catalogue, [0], BASE);
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
        checkReferences(values, catalogue);
      }
      const [row] = await tx
        .insert(briefElements)
        .values({
          ...values,
          id,
          organisationId: actor.organisationId,
          briefId: null,
          createdById: actor.userId,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await record({
        on: BRIEF_ELEMENT_ENTITY,
        type: 'CREATE',
        entityId: id,
        snapshot: presentElement(row!, prediction?.currency ?? null),
      });
      if (prediction) {
        const [stored] = await tx
          .insert(briefPredictions)
          .values(prediction)
          .returning(predictionSummaryColumns);
        await record({
          on: BRIEF_PREDICTION_ENTITY,
          type: 'CREATE',
          entityId: prediction.id,
          snapshot: presentSummary(stored!),
          relation: BRIEF_ELEMENT_ENTITY,
          relationId: id,
          process: 'PREDICTION',
        });
      }
      return { id };
    },
  };
}
