/**
 * Input checks with precise reasons and JSON pointers into the brief (array indexes, e.g.
 * `/briefElements/1/decorationsCount/0/quantity`). Field checks come first; geometry and route
 * checks (does the blank fit a sheet, does a machine take the board) need valid fields and run
 * only when those pass.
 */
import {
  type CatalogueIndex,
  findConsumable,
  findToolingRule,
  type Product,
  type ProductCategory,
} from './catalogue.ts';
import type { PricingIssue } from './errors.ts';
import type { DieLine } from './geometry/die-line.ts';
import { frontPanel, WINDOW_STYLES } from './geometry/styles.ts';
import type { BriefElementInput, BriefInput } from './input.ts';
import { findPallet } from './logistics.ts';
import type { RoutePlanning } from './process-planning.ts';
import { digitalConsumablesPresent, offsetConsumablesPresent, type ResolvedElement } from './resolve.ts';

export const MAX_DECORATION_VARIANTS = 12;
export const MAX_COLOURS_PER_SIDE = 8;
export const MAX_QUANTITY = 50_000_000;
export const MAX_MARGIN = 0.99;
export const MAX_EMBOSSING_DEPTH_MM = 2;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);
const isPositiveInteger = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) > 0;

function checkMargin(value: unknown, pointer: string, issues: PricingIssue[]): void {
  if (value === undefined) return;
  if (!isFiniteNumber(value) || value < 0 || value > MAX_MARGIN) {
    issues.push({ pointer, message: `commercial margin must be a number from 0 to ${MAX_MARGIN}` });
  }
}

/** Brief-level fields: elements present, unique positions, packing, pallet, zone, margin. */
export function checkBriefFields(brief: BriefInput, index: CatalogueIndex): PricingIssue[] {
  const issues: PricingIssue[] = [];
  if (!isObject(brief)) return [{ pointer: '', message: 'the brief must be an object' }];
  if (!Array.isArray(brief.briefElements) || brief.briefElements.length === 0) {
    issues.push({ pointer: '/briefElements', message: 'a brief needs at least one element' });
  } else {
    const seen = new Map<number, number>();
    brief.briefElements.forEach((element, i) => {
      if (!isObject(element)) return;
      const position = element.position;
      if (!Number.isInteger(position) || (position as number) < 0) return;
      const first = seen.get(position as number);
      if (first !== undefined) {
        issues.push({
          pointer: `/briefElements/${i}/position`,
          message: `position ${position} is already used by /briefElements/${first}`,
        });
      } else seen.set(position as number, i);
    });
  }
  if (
    brief.packingType !== undefined &&
    brief.packingType !== 'SHIPPING_CASE' &&
    brief.packingType !== 'BUNDLE'
  ) {
    issues.push({ pointer: '/packingType', message: 'packingType must be SHIPPING_CASE or BUNDLE' });
  }
  const palletType = brief.palletType ?? 'EURO';
  if (palletType !== 'EURO' && palletType !== 'STANDARD' && palletType !== 'CUSTOM') {
    issues.push({ pointer: '/palletType', message: 'palletType must be EURO, STANDARD or CUSTOM' });
  } else if (!findPallet(index.catalogue, palletType)) {
    issues.push({ pointer: '/palletType', message: `the catalogue has no ${palletType} pallet` });
  }
  if (brief.deliveryZoneId !== undefined && !index.deliveryZones.has(brief.deliveryZoneId)) {
    issues.push({ pointer: '/deliveryZoneId', message: `unknown delivery zone '${brief.deliveryZoneId}'` });
  }
  checkMargin(brief.commercialMargin, '/commercialMargin', issues);
  return issues;
}

/** Field checks of one element; these need no geometry. */
export function checkElementFields(
  element: BriefElementInput,
  arrayIndex: number,
  index: CatalogueIndex,
): PricingIssue[] {
  const base = `/briefElements/${arrayIndex}`;
  if (!isObject(element)) return [{ pointer: base, message: 'a brief element must be an object' }];
  const issues: PricingIssue[] = [];
  const check: ElementCheck = {
    element,
    index,
    catalogue: index.catalogue,
    issue: (field, message) => issues.push({ pointer: `${base}/${field}`, message }),
  };
  // The steps in this order: each adds its issues after the previous ones'.
  const { product, category } = checkProduct(check);
  checkDimensions(check, product);
  checkMaterial(check, product);
  checkDecorationVariants(check);
  const corrugatedProduct = category?.kind === 'CORRUGATED_CASE';
  checkPrinting(check, category, corrugatedProduct);
  checkFinishFlags(check, corrugatedProduct);
  checkHotStampings(check);
  checkEmbossings(check);
  checkWindow(check, product);
  checkExistingTools(check);
  checkMargin(element.commercialMargin, `${base}/commercialMargin`, issues);
  return issues;
}

/**
 * What each step of checkElementFields reads: the element, the catalogue (and its index) and
 * `issue(field, message)`, which adds an issue at `/briefElements/<i>/<field>`.
 */
export interface ElementCheck {
  element: BriefElementInput;
  index: CatalogueIndex;
  catalogue: CatalogueIndex['catalogue'];
  issue: (field: string, message: string) => void;
}

/** Position; the product and its category (and the category named, if any). */
export function checkProduct({ element, index, issue }: ElementCheck): {
  product: Product | undefined;
  category: ProductCategory | undefined;
} {
  if (!Number.isInteger(element.position) || element.position < 0)
    issue('position', 'position must be an integer from 0');

  const product = typeof element.productId === 'string' ? index.products.get(element.productId) : undefined;
  if (!product) issue('productId', `unknown product '${String(element.productId)}'`);
  const category = product ? index.productCategories.get(product.categoryId) : undefined;
  if (product && !category) issue('productId', `product ${product.code} refers to a missing category`);
  if (element.productCategoryId !== undefined) {
    if (!index.productCategories.has(element.productCategoryId)) {
      issue('productCategoryId', `unknown product category '${element.productCategoryId}'`);
    } else if (product && product.categoryId !== element.productCategoryId) {
      issue(
        'productCategoryId',
        `product ${product.code} belongs to category ${category?.code ?? product.categoryId}`,
      );
    }
  }

  return { product, category };
}

/** Dimensions: positive, within the product's limits (height unused for flat items). */
export function checkDimensions({ element, issue }: ElementCheck, product: Product | undefined): void {
  const isFlat = product?.style === 'FLAT';
  for (const [field, key] of [
    ['lengthDimension', 'length'],
    ['widthDimension', 'width'],
    ['heightDimension', 'height'],
  ] as const) {
    const value = element[field];
    if (isFlat && key === 'height') {
      if (value !== undefined && (!isFiniteNumber(value) || value < 0))
        issue(field, 'must be a number >= 0 (unused for flat items)');
      continue;
    }
    if (!isFiniteNumber(value) || value <= 0) {
      issue(field, 'must be a positive number of millimetres');
      continue;
    }
    if (product) {
      const min = product.minDimensions[key];
      const max = product.maxDimensions[key];
      if (value < min) issue(field, `${value} mm is below the ${min} mm minimum ${key} of ${product.name}`);
      else if (value > max)
        issue(field, `${value} mm is above the ${max} mm maximum ${key} of ${product.name}`);
    }
  }
}

/** Material: reference known; matter/type/grammage consistent; the product can be made of it. */
export function checkMaterial({ element, index, issue }: ElementCheck, product: Product | undefined): void {
  const reference =
    typeof element.materialReferenceId === 'string'
      ? index.materialReferences.get(element.materialReferenceId)
      : undefined;
  if (!reference)
    issue('materialReferenceId', `unknown material reference '${String(element.materialReferenceId)}'`);
  if (element.matterId !== undefined) {
    if (!index.matters.has(element.matterId)) issue('matterId', `unknown matter '${element.matterId}'`);
    else if (reference && reference.matterId !== element.matterId) {
      issue(
        'matterId',
        `material ${reference.code} is ${index.matters.get(reference.matterId)?.name ?? reference.matterId}, not ${index.matters.get(element.matterId)?.name}`,
      );
    }
  }
  if (element.materialTypeId !== undefined) {
    if (!index.materialTypes.has(element.materialTypeId))
      issue('materialTypeId', `unknown material type '${element.materialTypeId}'`);
    else if (reference && reference.materialTypeId !== element.materialTypeId) {
      issue(
        'materialTypeId',
        `material ${reference.code} is of type ${index.materialTypes.get(reference.materialTypeId)?.code ?? reference.materialTypeId}`,
      );
    }
  }
  const referenceMatter = reference ? index.matters.get(reference.matterId) : undefined;
  if (reference && !referenceMatter)
    issue('materialReferenceId', `material ${reference.code} refers to a missing matter`);
  if (reference && !index.materialTypes.has(reference.materialTypeId)) {
    issue('materialReferenceId', `material ${reference.code} refers to a missing material type`);
  }
  if (product && reference && referenceMatter && !product.allowedMatterIds.includes(reference.matterId)) {
    const needed = product.allowedMatterIds.map((id) => index.matters.get(id)?.name ?? id).join(' or ');
    issue(
      'materialReferenceId',
      `${product.name} is made of ${needed}; ${reference.code} is ${referenceMatter.name}`,
    );
  }
  let grammage = reference?.grammage;
  if (element.corrugatedMaterialId !== undefined) {
    const corrugated = index.corrugatedMaterials.get(element.corrugatedMaterialId);
    if (!corrugated)
      issue('corrugatedMaterialId', `unknown corrugated material '${element.corrugatedMaterialId}'`);
    else if (reference && corrugated.materialReferenceId !== reference.id) {
      issue(
        'corrugatedMaterialId',
        `composition ${corrugated.code} belongs to ${corrugated.materialReferenceId}, not ${reference.code}`,
      );
    } else grammage = corrugated.grammage;
  }
  if (element.grammage !== undefined && grammage !== undefined) {
    if (!isFiniteNumber(element.grammage) || Math.abs(element.grammage - grammage) > 0.5) {
      issue(
        'grammage',
        `grammage ${String(element.grammage)} g/m2 does not match the material (${grammage} g/m2)`,
      );
    }
  }
}

/** Decoration variants and their quantities. */
export function checkDecorationVariants({ element, issue }: ElementCheck): void {
  if (!Array.isArray(element.decorationsCount) || element.decorationsCount.length === 0) {
    issue('decorationsCount', 'decorationsCount is required and needs at least one variant');
  } else {
    if (element.decorationsCount.length > MAX_DECORATION_VARIANTS) {
      issue('decorationsCount', `at most ${MAX_DECORATION_VARIANTS} decoration variants`);
    }
    const seen = new Map<number, number>();
    element.decorationsCount.forEach((decoration, j) => {
      const p = `decorationsCount/${j}`;
      if (!isObject(decoration)) {
        issue(p, 'must be an object with decorationIndex and quantity');
        return;
      }
      const di = decoration.decorationIndex;
      if (!Number.isInteger(di) || di < 0 || di > MAX_DECORATION_VARIANTS - 1) {
        issue(
          `${p}/decorationIndex`,
          `decorationIndex must be an integer from 0 to ${MAX_DECORATION_VARIANTS - 1}`,
        );
      } else if (seen.has(di)) {
        issue(
          `${p}/decorationIndex`,
          `decorationIndex ${di} is repeated (see decorationsCount/${seen.get(di)})`,
        );
      } else seen.set(di, j);
      const q = decoration.quantity;
      if (!isPositiveInteger(q)) issue(`${p}/quantity`, 'quantity must be a positive whole number');
      else if (q > MAX_QUANTITY) issue(`${p}/quantity`, `quantity above the ${MAX_QUANTITY} limit`);
    });
  }
}

/** Printing: sides and colours, the process, what the catalogue needs to print; ink coverage. */
export function checkPrinting(
  { element, catalogue, issue }: ElementCheck,
  category: ProductCategory | undefined,
  corrugatedProduct: boolean,
): void {
  if (typeof element.wantDecoration !== 'boolean')
    issue('wantDecoration', 'wantDecoration must be true or false');
  for (const field of ['rectoColorCount', 'versoColorCount'] as const) {
    const value = element[field];
    if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > MAX_COLOURS_PER_SIDE)) {
      issue(field, `colour count must be a whole number from 0 to ${MAX_COLOURS_PER_SIDE}`);
    }
  }
  const recto = Number.isInteger(element.rectoColorCount) ? (element.rectoColorCount as number) : 0;
  const verso = Number.isInteger(element.versoColorCount) ? (element.versoColorCount as number) : 0;
  if (element.wantDecoration === false) {
    if (recto > 0) issue('rectoColorCount', 'colours are given but wantDecoration is false');
    if (verso > 0) issue('versoColorCount', 'colours are given but wantDecoration is false');
    if (element.printingProcess !== undefined)
      issue('printingProcess', 'a printing process is given but wantDecoration is false');
  } else if (element.wantDecoration === true) {
    const side = element.sidePrinted;
    if (side !== 'RECTO' && side !== 'VERSO' && side !== 'RECTO_VERSO') {
      issue('sidePrinted', 'sidePrinted must be RECTO, VERSO or RECTO_VERSO when wantDecoration is true');
    } else {
      if (side !== 'VERSO' && recto === 0)
        issue('rectoColorCount', `sidePrinted ${side} needs at least one recto colour`);
      if (side !== 'RECTO' && verso === 0)
        issue('versoColorCount', `sidePrinted ${side} needs at least one verso colour`);
      if (side === 'RECTO' && verso > 0)
        issue('versoColorCount', 'verso colours are given but sidePrinted is RECTO');
      if (side === 'VERSO' && recto > 0)
        issue('rectoColorCount', 'recto colours are given but sidePrinted is VERSO');
      if (corrugatedProduct && side !== 'RECTO')
        issue('sidePrinted', 'corrugated cases are printed on the outside (RECTO) only');
    }
    const process = element.printingProcess;
    if (process !== undefined) {
      if (process !== 'offset' && process !== 'digital' && process !== 'flexo') {
        issue('printingProcess', 'printingProcess must be offset, digital or flexo');
      } else if (category && corrugatedProduct && process !== 'flexo') {
        issue('printingProcess', `${category.name} is printed flexo, not ${process}`);
      } else if (category && !corrugatedProduct && process === 'flexo') {
        issue('printingProcess', `${category.name} is printed offset or digital, not flexo`);
      }
    }
    const offsetReady = offsetConsumablesPresent(catalogue);
    const digitalReady = digitalConsumablesPresent(catalogue);
    if (process === 'offset' && !offsetReady)
      issue('printingProcess', 'the catalogue has no offset ink or plates');
    if (process === 'digital' && !digitalReady) {
      issue('printingProcess', 'the catalogue has no digital click rate (consumable DIGITAL_CLICK)');
    }
    if (process === undefined && !corrugatedProduct && !offsetReady && !digitalReady) {
      issue('wantDecoration', 'the catalogue has neither offset ink and plates nor a digital click rate');
    }
    if (corrugatedProduct && !findConsumable(catalogue, 'FLEXO_INK'))
      issue('wantDecoration', 'the catalogue has no flexo ink');
  }
  if (
    element.inkCoverage !== undefined &&
    (!isFiniteNumber(element.inkCoverage) || element.inkCoverage <= 0 || element.inkCoverage > 1)
  ) {
    issue('inkCoverage', 'inkCoverage is a fraction of the printed area, above 0 and at most 1 (e.g. 0.35)');
  }
}

/** Finishes asked for (lamination, varnish, hot foil, embossing): booleans, available, in the catalogue. */
export function checkFinishFlags(
  { element, catalogue, issue }: ElementCheck,
  corrugatedProduct: boolean,
): void {
  const finishes = [
    ['wantLaminationRecto', 'lamination', 'LAMINATE_FILM'],
    ['wantVarnishRecto', 'varnish', 'VARNISH'],
    ['wantStampingRecto', 'hot-foil stamping', null],
    ['wantEmbossingDebossingRecto', 'embossing', null],
  ] as const;
  for (const [field, name, consumableKind] of finishes) {
    const value = element[field];
    if (value !== undefined && typeof value !== 'boolean') issue(field, `${field} must be true or false`);
    if (value === true && corrugatedProduct) issue(field, `${name} is not available on corrugated cases`);
    if (value === true && consumableKind && !findConsumable(catalogue, consumableKind)) {
      issue(field, `the catalogue has no ${name} consumable (${consumableKind})`);
    }
  }
}

/** Hot stampings: given exactly when asked for; each one's foil, coverage and size. */
export function checkHotStampings({ element, catalogue, issue }: ElementCheck): void {
  const stampings = element.hotStampings;
  if (element.wantStampingRecto === true) {
    if (!Array.isArray(stampings) || stampings.length === 0)
      issue('hotStampings', 'wantStampingRecto needs at least one hot stamping');
    if (!findToolingRule(catalogue, 'STAMPING_DIE'))
      issue('wantStampingRecto', 'the catalogue has no stamping die rule');
  } else if (Array.isArray(stampings) && stampings.length > 0) {
    issue('hotStampings', 'hot stampings are given but wantStampingRecto is not true');
  }
  if (Array.isArray(stampings)) {
    stampings.forEach((stamp, j) => {
      const p = `hotStampings/${j}`;
      if (!isObject(stamp)) {
        issue(p, 'must be an object with color, coverage, width and height');
        return;
      }
      if (typeof stamp.color !== 'string' || stamp.color.trim() === '')
        issue(`${p}/color`, 'foil colour is required');
      else if (element.wantStampingRecto === true && !findConsumable(catalogue, 'FOIL', stamp.color)) {
        issue(`${p}/color`, 'the catalogue has no foil');
      }
      if (!isFiniteNumber(stamp.coverage) || stamp.coverage <= 0 || stamp.coverage > 1)
        issue(`${p}/coverage`, 'coverage is a fraction above 0 and at most 1');
      if (!isFiniteNumber(stamp.width) || stamp.width <= 0)
        issue(`${p}/width`, 'must be a positive number of millimetres');
      if (!isFiniteNumber(stamp.height) || stamp.height <= 0)
        issue(`${p}/height`, 'must be a positive number of millimetres');
    });
  }
}

/** Embossings: given exactly when asked for; each one's type (and its die rule), size and depth. */
export function checkEmbossings({ element, catalogue, issue }: ElementCheck): void {
  const embossings = element.embossings;
  if (element.wantEmbossingDebossingRecto === true) {
    if (!Array.isArray(embossings) || embossings.length === 0)
      issue('embossings', 'wantEmbossingDebossingRecto needs at least one embossing');
  } else if (Array.isArray(embossings) && embossings.length > 0) {
    issue('embossings', 'embossings are given but wantEmbossingDebossingRecto is not true');
  }
  if (Array.isArray(embossings)) {
    embossings.forEach((emboss, j) => {
      const p = `embossings/${j}`;
      if (!isObject(emboss)) {
        issue(p, 'must be an object with type, width, height and depth');
        return;
      }
      if (emboss.type !== 'EMBOSSING' && emboss.type !== 'DEBOSSING' && emboss.type !== 'BRAILLE') {
        issue(`${p}/type`, 'type must be EMBOSSING, DEBOSSING or BRAILLE');
      } else if (
        element.wantEmbossingDebossingRecto === true &&
        !findToolingRule(catalogue, emboss.type === 'BRAILLE' ? 'BRAILLE_DIE' : 'EMBOSSING_DIE')
      ) {
        issue(`${p}/type`, `the catalogue has no ${emboss.type.toLowerCase()} die rule`);
      }
      if (!isFiniteNumber(emboss.width) || emboss.width <= 0)
        issue(`${p}/width`, 'must be a positive number of millimetres');
      if (!isFiniteNumber(emboss.height) || emboss.height <= 0)
        issue(`${p}/height`, 'must be a positive number of millimetres');
      if (!isFiniteNumber(emboss.depth) || emboss.depth <= 0 || emboss.depth > MAX_EMBOSSING_DEPTH_MM) {
        issue(`${p}/depth`, `depth must be above 0 and at most ${MAX_EMBOSSING_DEPTH_MM} mm`);
      }
    });
  }
}

/** The window: the product can have one, its size, the catalogue's window film. */
export function checkWindow({ element, catalogue, issue }: ElementCheck, product: Product | undefined): void {
  if (element.wantWindow !== undefined && typeof element.wantWindow !== 'boolean')
    issue('wantWindow', 'wantWindow must be true or false');
  if (element.wantWindow === true) {
    if (product && (!product.windowAllowed || !WINDOW_STYLES.has(product.style)))
      issue('wantWindow', `${product.name} cannot have a window`);
    if (!isFiniteNumber(element.windowWidth) || element.windowWidth <= 0)
      issue('windowWidth', 'a window needs a positive width in millimetres');
    if (!isFiniteNumber(element.windowHeight) || element.windowHeight <= 0)
      issue('windowHeight', 'a window needs a positive height in millimetres');
    if (!findConsumable(catalogue, 'WINDOW_FILM'))
      issue('wantWindow', 'the catalogue has no window film (WINDOW_FILM)');
  }
}

/** Existing tools: known machines, each once, whole ups. */
export function checkExistingTools({ element, index, issue }: ElementCheck): void {
  if (element.layoutCounts !== undefined) {
    if (!Array.isArray(element.layoutCounts)) issue('layoutCounts', 'layoutCounts must be an array');
    else {
      const machines = new Set<string>();
      element.layoutCounts.forEach((layout, j) => {
        const p = `layoutCounts/${j}`;
        if (!isObject(layout)) {
          issue(p, 'must be an object with quantity and machineId');
          return;
        }
        if (!index.machines.has(layout.machineId))
          issue(`${p}/machineId`, `unknown machine '${String(layout.machineId)}'`);
        else if (machines.has(layout.machineId))
          issue(`${p}/machineId`, `machine ${layout.machineId} is listed twice`);
        machines.add(layout.machineId);
        if (!isPositiveInteger(layout.quantity))
          issue(`${p}/quantity`, 'ups of the existing tool must be a positive whole number');
      });
    }
  }
}

/** Checks that need the die-line: the window fits its panel, stamps and embossings fit the blank. */
const mm = (n: number) => (Math.round(n * 10) / 10).toString();

export function checkGeometry(
  element: ResolvedElement,
  dieLine: DieLine,
  index: CatalogueIndex,
): PricingIssue[] {
  const issues: PricingIssue[] = [];
  const base = `/briefElements/${element.arrayIndex}`;
  const fitsBlank = (w: number, h: number) =>
    (w <= dieLine.width && h <= dieLine.height) || (h <= dieLine.width && w <= dieLine.height);
  if (element.window) {
    const margin = index.catalogue.settings.windowPanelMarginMm;
    const panel = frontPanel({
      length: element.length,
      width: element.width,
      height: element.height,
      caliperMm: element.caliperMm,
      product: element.product,
    });
    if (element.window.width > panel.width - 2 * margin) {
      issues.push({
        pointer: `${base}/windowWidth`,
        message: `a ${element.window.width} mm window leaves less than ${margin} mm of board each side of the ${mm(panel.width)} mm front panel`,
      });
    }
    if (element.window.height > panel.height - 2 * margin) {
      issues.push({
        pointer: `${base}/windowHeight`,
        message: `a ${element.window.height} mm window leaves less than ${margin} mm of board above and below in the ${mm(panel.height)} mm front panel`,
      });
    }
  }
  element.stampings.forEach((stamp, j) => {
    if (!fitsBlank(stamp.width, stamp.height)) {
      issues.push({
        pointer: `${base}/hotStampings/${j}`,
        message: `a ${stamp.width} x ${stamp.height} mm stamp does not fit the ${mm(dieLine.width)} x ${mm(dieLine.height)} mm blank`,
      });
    }
  });
  element.embossings.forEach((emboss, j) => {
    if (!fitsBlank(emboss.width, emboss.height)) {
      issues.push({
        pointer: `${base}/embossings/${j}`,
        message: `a ${emboss.width} x ${emboss.height} mm embossing does not fit the blank`,
      });
    }
  });
  return issues;
}

/** When no route is feasible: the most specific reasons why, one per field, deduplicated. */
export function routeIssues(planning: RoutePlanning): PricingIssue[] {
  if (planning.plans.length > 0) return [];
  if (planning.failures.length === 0)
    return [{ pointer: '', message: 'no way to make this element with the catalogue machines' }];
  const topRank = Math.max(...planning.failures.map((f) => f.rank));
  // Within the top rank, the furthest-reaching reason: the largest sheet for "blank too big",
  // the latest operation for "no machine takes it".
  const ofRank = planning.failures.filter((f) => f.rank === topRank);
  const topOrder = Math.max(...ofRank.map((f) => f.order ?? 0));
  const ranked = ofRank.filter((f) => (f.order ?? 0) === topOrder);
  const seen = new Set<string>();
  const issues: PricingIssue[] = [];
  for (const failure of ranked) {
    if (seen.has(failure.pointer)) continue;
    seen.add(failure.pointer);
    issues.push({ pointer: failure.pointer, message: failure.message });
  }
  return issues;
}
