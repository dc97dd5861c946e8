/**
 * The catalogue as a buyer sees it (every role without `costs:read`): what a configurator needs to
 * describe a box (styles and their limits, boards by grammage and caliper, sheet formats, cases,
 * pallets, zones), never a rate, a price, a speed, a set-up time or a spoilage rate. Each kind's
 * fields are listed (an allowlist): a field added to a record later stays seller-only until it is
 * listed here.
 */
import type { Actor } from '../../platform/actor.ts';
import { audienceOf, pick } from '../../platform/audience.ts';
import type { CatalogueEntry } from './repository.ts';

export const BUYER_FIELDS: Record<string, readonly string[]> = {
  productCategories: ['kind'],
  products: [
    'categoryId',
    'style',
    'allowedMatterIds',
    'windowAllowed',
    'minDimensions',
    'maxDimensions',
    'gluing',
    'glueFlapMm',
    'tuckFlapMm',
    'dustFlapRatio',
    'slotWidthMm',
    'requiredGrain',
    'mixedGrainAllowed',
    'requiredFlute',
  ],
  matters: ['kind'],
  materialTypes: ['matterId', 'flute', 'thickness', 'outsideGain', 'insideLoss'],
  materialReferences: [
    'materialTypeId',
    'matterId',
    'grammage',
    'caliperMm',
    'grain',
    'cutToSize',
    'sheetFormats',
    'description',
  ],
  corrugatedMaterials: ['materialReferenceId', 'fluteId', 'linerIds', 'composition', 'grammage'],
  operations: ['category'],
  machines: ['kind'],
  consumables: ['kind', 'unit', 'colour'],
  toolingRules: ['kind'],
  packingCases: ['kind', 'length', 'width', 'height', 'maxWeightKg'],
  pallets: ['type', 'length', 'width', 'deckHeightMm', 'maxLoadedHeightMm', 'maxGrossWeightKg'],
  deliveryZones: ['countryCodes'],
  settings: ['currency'],
  // HIPE's corrugated records the engine does not read (suppliers and composition prices are
  // purchasing data: their routes need costs:read).
  corrugatedLiners: ['weight', 'label', 'category', 'color', 'type'],
  corrugatedFormats: ['width', 'length'],
};

/** Sheet formats keep their size and grain, never a price a supplier may attach. */
const SHEET_FORMAT_FIELDS = ['width', 'height', 'grain'];

/** The entry with only the data a buyer may see. */
export function buyerEntry<E extends Pick<CatalogueEntry, 'kind' | 'data'>>(entry: E): E {
  const data = pick(entry.data, BUYER_FIELDS[entry.kind] ?? []) as Record<string, unknown>;
  if (Array.isArray(data.sheetFormats))
    data.sheetFormats = data.sheetFormats.map((format: Record<string, unknown>) =>
      pick(format, SHEET_FORMAT_FIELDS),
    );
  return { ...entry, data };
}

/** The entry for the caller's audience: the seller's staff see it whole. */
export const entryFor = <E extends Pick<CatalogueEntry, 'kind' | 'data'>>(actor: Actor, entry: E): E =>
  audienceOf(actor) === 'seller' ? entry : buyerEntry(entry);
