/**
 * Turns a validated brief element into the records and numbers the chain works with: the
 * catalogue records it names, the board actually used (grammage, caliper, price per m2), the
 * decoration variants in index order, the requested finishes and the margin that applies.
 */
import {
  type Catalogue,
  type CatalogueIndex,
  type CorrugatedMaterial,
  findConsumable,
  type MaterialReference,
  type MaterialType,
  type Matter,
  type Product,
  type ProductCategory,
} from './catalogue.ts';
import type {
  BriefElementInput,
  BriefInput,
  DecorationCount,
  EmbossingDebossing,
  HotStamping,
  PrintingProcess,
  SidePrinted,
} from './input.ts';

export type RouteProcess = PrintingProcess | 'none';

export interface ResolvedElement {
  arrayIndex: number;
  position: number;
  input: BriefElementInput;
  product: Product;
  category: ProductCategory;
  matter: Matter;
  materialType: MaterialType;
  reference: MaterialReference;
  corrugated: CorrugatedMaterial | null;
  grammage: number;
  caliperMm: number;
  /** Board price per m2 of sheet, whichever way the reference is priced. */
  boardPricePerM2: number;
  boardPricing: { basis: 'TONNE'; pricePerTonne: number } | { basis: 'SQUARE_METRE'; pricePerM2: number };
  length: number;
  width: number;
  height: number;
  /** Decoration variants sorted by decorationIndex. */
  decorations: DecorationCount[];
  /** Total quantity over all variants. */
  quantity: number;
  print: {
    wanted: boolean;
    sidePrinted: SidePrinted | null;
    recto: number;
    verso: number;
    coverage: number;
  };
  /** Processes to price: the forced one, or every applicable one. */
  processes: RouteProcess[];
  lamination: boolean;
  varnish: boolean;
  stampings: HotStamping[];
  embossings: EmbossingDebossing[];
  window: { width: number; height: number } | null;
  /** machineId -> ups of the existing tool on that machine. */
  existingTools: Map<string, number>;
  commercialMargin: number;
  commercialMarginInitial: number;
}

export function resolveElement(
  element: BriefElementInput,
  arrayIndex: number,
  brief: BriefInput,
  index: CatalogueIndex,
): ResolvedElement {
  const settings = index.catalogue.settings;
  const product = index.products.get(element.productId)!;
  const category = index.productCategories.get(product.categoryId)!;
  const reference = index.materialReferences.get(element.materialReferenceId)!;
  const matter = index.matters.get(reference.matterId)!;
  const materialType = index.materialTypes.get(reference.materialTypeId)!;
  const corrugated =
    element.corrugatedMaterialId !== undefined
      ? (index.corrugatedMaterials.get(element.corrugatedMaterialId) ?? null)
      : null;
  const grammage = corrugated ? corrugated.grammage : reference.grammage;
  const boardPricing: ResolvedElement['boardPricing'] = corrugated
    ? { basis: 'SQUARE_METRE', pricePerM2: corrugated.pricePerSquareMetre }
    : reference.pricePerSquareMetre !== undefined
      ? { basis: 'SQUARE_METRE', pricePerM2: reference.pricePerSquareMetre }
      : { basis: 'TONNE', pricePerTonne: reference.pricePerTonne };
  const boardPricePerM2 =
    boardPricing.basis === 'SQUARE_METRE'
      ? boardPricing.pricePerM2
      : (grammage / 1e6) * boardPricing.pricePerTonne;
  const decorations = [...element.decorationsCount]
    .map((d) => ({ decorationIndex: d.decorationIndex, quantity: d.quantity }))
    .sort((a, b) => a.decorationIndex - b.decorationIndex);
  const quantity = decorations.reduce((sum, d) => sum + d.quantity, 0);
  const wanted = element.wantDecoration === true;
  const recto = wanted ? (element.rectoColorCount ?? 0) : 0;
  const verso = wanted ? (element.versoColorCount ?? 0) : 0;
  let processes: RouteProcess[];
  if (!wanted) processes = ['none'];
  else if (element.printingProcess) processes = [element.printingProcess];
  else if (category.kind === 'CORRUGATED_CASE') processes = ['flexo'];
  else {
    processes = [];
    if (offsetConsumablesPresent(index.catalogue)) processes.push('offset');
    if (digitalConsumablesPresent(index.catalogue)) processes.push('digital');
  }
  const existingTools = new Map<string, number>();
  for (const layout of element.layoutCounts ?? []) existingTools.set(layout.machineId, layout.quantity);
  const marginInitial = brief.commercialMargin ?? settings.defaultCommercialMargin;
  return {
    arrayIndex,
    position: element.position,
    input: element,
    product,
    category,
    matter,
    materialType,
    reference,
    corrugated,
    grammage,
    caliperMm: reference.caliperMm,
    boardPricePerM2,
    boardPricing,
    length: element.lengthDimension,
    width: element.widthDimension,
    height: product.style === 'FLAT' ? 0 : element.heightDimension,
    decorations,
    quantity,
    print: {
      wanted,
      sidePrinted: wanted ? (element.sidePrinted ?? null) : null,
      recto,
      verso,
      coverage: element.inkCoverage ?? settings.defaultInkCoverage,
    },
    processes,
    lamination: element.wantLaminationRecto === true,
    varnish: element.wantVarnishRecto === true,
    stampings: element.wantStampingRecto === true ? (element.hotStampings ?? []) : [],
    embossings: element.wantEmbossingDebossingRecto === true ? (element.embossings ?? []) : [],
    window:
      element.wantWindow === true
        ? { width: element.windowWidth ?? 0, height: element.windowHeight ?? 0 }
        : null,
    existingTools,
    commercialMargin: element.commercialMargin ?? marginInitial,
    commercialMarginInitial: marginInitial,
  };
}

export function offsetConsumablesPresent(catalogue: Catalogue): boolean {
  return (
    findConsumable(catalogue, 'OFFSET_INK') !== undefined &&
    findConsumable(catalogue, 'OFFSET_PLATE') !== undefined
  );
}

export function digitalConsumablesPresent(catalogue: Catalogue): boolean {
  return findConsumable(catalogue, 'DIGITAL_CLICK') !== undefined;
}
