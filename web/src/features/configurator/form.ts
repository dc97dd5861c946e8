/**
 * The configurator's form state and its translation to and from the API's brief body. Only shapes
 * are handled here: every rule (ranges, what a style allows, finishes' consistency) is the API's,
 * whose problem pointers (`/briefElements/0/lengthDimension`) are shown beside the matching field.
 */

import type { BriefCreate, BriefUpdate } from '../briefs/api/index.ts';

export type Side = 'RECTO' | 'VERSO' | 'RECTO_VERSO';
export type Process = '' | 'offset' | 'digital' | 'flexo';

export type ElementForm = {
  /** An existing element (PUT keeps it). */
  id?: string;
  categoryId: string | null;
  productId: string | null;
  length: number | '';
  width: number | '';
  height: number | '';
  materialReferenceId: string | null;
  printed: boolean;
  printingProcess: Process;
  sidePrinted: Side;
  rectoColorCount: number;
  versoColorCount: number;
  /** Percent (the API takes a fraction); '' for the catalogue default. */
  inkCoverage: number | '';
  varnish: boolean;
  lamination: boolean;
  foil: boolean;
  foilWidth: number | '';
  foilHeight: number | '';
  embossing: boolean;
  embossWidth: number | '';
  embossHeight: number | '';
  window: boolean;
  windowWidth: number | '';
  windowHeight: number | '';
  /** Quantity of each artwork variant (decorationIndex = array index). */
  quantities: (number | '')[];
  /** Each variant's name ("Lemon") and artwork reference, beside its quantity ('' for none). */
  variantNames: string[];
  artworkReferences: string[];
  /** Properties the form does not edit, kept as they are (material type, grammage, tools...). */
  extra: Record<string, unknown>;
};

/** How the brief's products are packed for shipping; null leaves it to the estimating settings. */
export type PackingType = 'SHIPPING_CASE' | 'BUNDLE';

export type BriefForm = {
  name: string;
  companyId: string | null;
  projectId: string | null;
  packingType: PackingType | null;
  elements: ElementForm[];
};

export const emptyElement = (): ElementForm => ({
  categoryId: null,
  productId: null,
  length: '',
  width: '',
  height: '',
  materialReferenceId: null,
  printed: true,
  printingProcess: '',
  sidePrinted: 'RECTO',
  rectoColorCount: 4,
  versoColorCount: 0,
  inkCoverage: '',
  varnish: false,
  lamination: false,
  foil: false,
  foilWidth: 40,
  foilHeight: 20,
  embossing: false,
  embossWidth: 40,
  embossHeight: 20,
  window: false,
  windowWidth: 50,
  windowHeight: 50,
  quantities: [5000],
  variantNames: [''],
  artworkReferences: [''],
  extra: {},
});

/** The kinds of product category the catalogue knows (a category's `kind`). */
export type CategoryKind = 'FOLDING_CARTON' | 'CORRUGATED_CASE' | 'FLAT_ITEM';

type PrintDefaults = Pick<
  ElementForm,
  'printed' | 'printingProcess' | 'sidePrinted' | 'rectoColorCount' | 'versoColorCount'
>;

/**
 * Issue 26: what an element of each kind of category starts with, in one place. The usual print of
 * each: a folding carton 4/0 offset (CMYK outside, plain inside); a corrugated case one flexo
 * colour outside (a logo or marks, on the flexo folder-gluer or rotary die-cutter of the catalogue,
 * which print up to 4 and 3 colours); a flat item (card, leaflet, label) 4/0 offset.
 */
export const CATEGORY_DEFAULTS: Record<CategoryKind, PrintDefaults> = {
  FOLDING_CARTON: {
    printed: true,
    printingProcess: 'offset',
    sidePrinted: 'RECTO',
    rectoColorCount: 4,
    versoColorCount: 0,
  },
  CORRUGATED_CASE: {
    printed: true,
    printingProcess: 'flexo',
    sidePrinted: 'RECTO',
    rectoColorCount: 1,
    versoColorCount: 0,
  },
  FLAT_ITEM: {
    printed: true,
    printingProcess: 'offset',
    sidePrinted: 'RECTO',
    rectoColorCount: 4,
    versoColorCount: 0,
  },
};

type CategoryEntry = { id: string; code?: unknown; kind?: unknown };

const knownKind = (value: unknown): CategoryKind | null =>
  typeof value === 'string' && value in CATEGORY_DEFAULTS ? (value as CategoryKind) : null;

/**
 * The kind of an element's category (null: none chosen, or a kind the app does not know). The
 * catalogue API's `kind` names the collection (`productCategories`) and hides the category's own,
 * so the category's code is read too: the catalogue's categories are coded by kind
 * (`CORRUGATED-CASE` is a CORRUGATED_CASE).
 */
export function categoryKind(categoryId: string | null, categories: CategoryEntry[]): CategoryKind | null {
  const category = categories.find((c) => c.id === categoryId);
  if (!category) return null;
  const byCode =
    typeof category.code === 'string' ? category.code.toUpperCase().replace(/[-\s]+/g, '_') : null;
  return knownKind(category.kind) ?? knownKind(byCode);
}

/**
 * The element after a change of style or category: when it moves to another kind of category
 * (none to folding carton, folding carton to corrugated), the print starts from that kind's
 * defaults; within a kind the user's choices stay.
 */
export function withCategoryDefaults(
  before: ElementForm,
  after: ElementForm,
  categories: CategoryEntry[],
): ElementForm {
  const kind = categoryKind(after.categoryId, categories);
  if (!kind || kind === categoryKind(before.categoryId, categories)) return after;
  return { ...after, ...CATEGORY_DEFAULTS[kind] };
}

export const emptyBrief = (): BriefForm => ({
  name: '',
  companyId: null,
  projectId: null,
  packingType: null,
  elements: [emptyElement()],
});

const FOIL_DEFAULTS = { color: 'gold', coverage: 0.5 };
const EMBOSS_DEFAULTS = { type: 'EMBOSSING', depth: 0.5 };

/** Fields of the API element the form edits (everything else rides in `extra`). */
const EDITED = new Set([
  'id',
  'position',
  'productCategoryId',
  'productId',
  'lengthDimension',
  'widthDimension',
  'heightDimension',
  'materialReferenceId',
  'decorationsCount',
  'wantDecoration',
  'sidePrinted',
  'rectoColorCount',
  'versoColorCount',
  'inkCoverage',
  'printingProcess',
  'wantLaminationRecto',
  'wantVarnishRecto',
  'wantStampingRecto',
  'hotStampings',
  'wantEmbossingDebossingRecto',
  'embossings',
  'wantWindow',
  'windowWidth',
  'windowHeight',
]);

/** Read-only and computed properties of a stored element that a request must not send back. */
const NOT_INPUT = new Set([
  'organisationId',
  'briefId',
  'unitPrice',
  'totalPrice',
  'predictionId',
  'pricedAt',
  'createdById',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'price',
  'currency',
  'quantity',
  'briefElementPrice',
  'matterId',
]);

const num = (v: number | '') => (v === '' ? undefined : v);

/** The API element of one form element (position = its index). */
export function elementBody(form: ElementForm, position: number): Record<string, unknown> {
  const body: Record<string, unknown> = { ...form.extra, position };
  if (form.id) body.id = form.id;
  if (form.categoryId) body.productCategoryId = form.categoryId;
  if (form.productId) body.productId = form.productId;
  if (form.length !== '') body.lengthDimension = form.length;
  if (form.width !== '') body.widthDimension = form.width;
  if (form.height !== '') body.heightDimension = form.height;
  if (form.materialReferenceId) body.materialReferenceId = form.materialReferenceId;
  body.decorationsCount = form.quantities.flatMap((quantity, decorationIndex) => {
    if (quantity === '' || quantity <= 0) return [];
    const name = form.variantNames[decorationIndex]?.trim();
    const artworkReference = form.artworkReferences[decorationIndex]?.trim();
    return [
      {
        decorationIndex,
        quantity,
        ...(name ? { name } : {}),
        ...(artworkReference ? { artworkReference } : {}),
      },
    ];
  });
  body.wantDecoration = form.printed;
  if (form.printed) {
    body.sidePrinted = form.sidePrinted;
    body.rectoColorCount = form.sidePrinted === 'VERSO' ? 0 : form.rectoColorCount;
    body.versoColorCount = form.sidePrinted === 'RECTO' ? 0 : form.versoColorCount;
    if (form.inkCoverage !== '') body.inkCoverage = form.inkCoverage / 100;
    if (form.printingProcess) body.printingProcess = form.printingProcess;
  }
  if (form.varnish) body.wantVarnishRecto = true;
  if (form.lamination) body.wantLaminationRecto = true;
  if (form.foil) {
    body.wantStampingRecto = true;
    body.hotStampings = [{ ...FOIL_DEFAULTS, width: num(form.foilWidth), height: num(form.foilHeight) }];
  }
  if (form.embossing) {
    body.wantEmbossingDebossingRecto = true;
    body.embossings = [{ ...EMBOSS_DEFAULTS, width: num(form.embossWidth), height: num(form.embossHeight) }];
  }
  if (form.window) {
    body.wantWindow = true;
    body.windowWidth = num(form.windowWidth);
    body.windowHeight = num(form.windowHeight);
  }
  return body;
}

/** The form element of an API element (a stored one, or a request body after a change). */
export function elementForm(element: Record<string, unknown>): ElementForm {
  const base = emptyElement();
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(element)) {
    if (!EDITED.has(key) && !NOT_INPUT.has(key) && value !== null && value !== undefined) extra[key] = value;
  }
  const foil = (element.hotStampings as { width?: number; height?: number }[] | undefined)?.[0];
  const emboss = (element.embossings as { width?: number; height?: number }[] | undefined)?.[0];
  const decorations =
    (element.decorationsCount as
      | {
          decorationIndex: number;
          quantity: number;
          name?: string | null;
          artworkReference?: string | null;
        }[]
      | undefined) ?? [];
  const quantities: (number | '')[] = [];
  const variantNames: string[] = [];
  const artworkReferences: string[] = [];
  for (const d of decorations) {
    quantities[d.decorationIndex] = d.quantity;
    variantNames[d.decorationIndex] = d.name ?? '';
    artworkReferences[d.decorationIndex] = d.artworkReference ?? '';
  }
  for (let i = 0; i < quantities.length; i++) {
    if (quantities[i] === undefined) quantities[i] = '';
    variantNames[i] ??= '';
    artworkReferences[i] ??= '';
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const n = (v: unknown, fallback: number | '') => (typeof v === 'number' ? v : fallback);
  return {
    id: str(element.id) ?? undefined,
    categoryId: str(element.productCategoryId),
    productId: str(element.productId),
    length: n(element.lengthDimension, ''),
    width: n(element.widthDimension, ''),
    height: n(element.heightDimension, ''),
    materialReferenceId: str(element.materialReferenceId),
    printed: element.wantDecoration === true,
    printingProcess: (str(element.printingProcess) ?? '') as Process,
    sidePrinted: (str(element.sidePrinted) ?? 'RECTO') as Side,
    rectoColorCount: n(element.rectoColorCount, 0) as number,
    versoColorCount: n(element.versoColorCount, 0) as number,
    inkCoverage: typeof element.inkCoverage === 'number' ? Math.round(element.inkCoverage * 1000) / 10 : '',
    varnish: element.wantVarnishRecto === true,
    lamination: element.wantLaminationRecto === true,
    foil: element.wantStampingRecto === true,
    foilWidth: foil?.width ?? base.foilWidth,
    foilHeight: foil?.height ?? base.foilHeight,
    embossing: element.wantEmbossingDebossingRecto === true,
    embossWidth: emboss?.width ?? base.embossWidth,
    embossHeight: emboss?.height ?? base.embossHeight,
    window: element.wantWindow === true,
    windowWidth: n(element.windowWidth, base.windowWidth),
    windowHeight: n(element.windowHeight, base.windowHeight),
    quantities: quantities.length ? quantities : [''],
    variantNames: quantities.length ? variantNames : [''],
    artworkReferences: quantities.length ? artworkReferences : [''],
    extra,
  };
}

/** Whether the form has what a price needs; the API checks everything else. */
export function isPriceable(form: BriefForm): boolean {
  return (
    (form.companyId !== null || form.projectId !== null) &&
    form.elements.length > 0 &&
    form.elements.every(
      (e) =>
        e.productId &&
        e.materialReferenceId &&
        e.length !== '' &&
        e.width !== '' &&
        e.quantities.some((q) => q !== '' && q > 0),
    )
  );
}

/** The body of POST /briefs, /briefs/estimate and PUT /briefs/{id}. */
export function briefBody(form: BriefForm, options: { forUpdate?: boolean } = {}): BriefCreate {
  const body: Record<string, unknown> = {
    briefElements: form.elements.map((e, i) => {
      const element = elementBody(e, i);
      if (!options.forUpdate) delete element.id;
      return element;
    }),
  };
  if (form.name.trim()) body.name = form.name.trim();
  if (form.packingType) body.packingType = form.packingType;
  // A project implies its company; without one the brief belongs to the company directly, and an
  // update says so explicitly (PUT changes only what is sent, so a cleared project is sent as null).
  if (form.projectId) body.projectId = form.projectId;
  else {
    if (options.forUpdate) body.projectId = null;
    if (form.companyId) body.companyId = form.companyId;
  }
  // Built field by field from the form (its elements keep the fields it does not edit, `extra`):
  // the API document's brief, which the API validates.
  return body as BriefCreate;
}

/**
 * The body of PUT /briefs/{id}: as briefBody, without the items when they are as loaded. The API
 * prices again any items a PUT sends (even unchanged ones), so saving only the name or the project
 * would add a version that changes nothing.
 */
export function updateBody(form: BriefForm, loaded: BriefForm): BriefUpdate {
  const body: BriefUpdate = briefBody(form, { forUpdate: true });
  const before = briefBody(loaded, { forUpdate: true });
  if (sameJson(body.briefElements, before.briefElements)) delete body.briefElements;
  return body;
}

/** Equal as JSON, whatever the order of object keys. */
function sameJson(a: unknown, b: unknown): boolean {
  const sorted = (value: unknown): string =>
    JSON.stringify(value, (_k, v) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
        : v,
    );
  return sorted(a) === sorted(b);
}

export type Change = { pointer: string; field: string; from?: unknown; to?: unknown };

/**
 * Applies a value-analysis suggestion (changes with pointers into the request body) to the form:
 * the element is turned into its body, the changes set there, and the result read back.
 */
export function applyChanges(form: BriefForm, changes: Change[]): BriefForm {
  const elements = form.elements.map((e, i) => elementBody(e, i));
  let packingType = form.packingType;
  for (const change of changes) {
    // Brief-level levers (bundle packing) point at the brief itself.
    if (change.pointer === '/packingType') {
      packingType = (change.to as PackingType | null | undefined) ?? null;
      continue;
    }
    const match = /^\/briefElements\/(\d+)\/([A-Za-z]+)$/.exec(change.pointer);
    if (!match) continue;
    const element = elements[Number(match[1])];
    if (!element) continue;
    if (change.to === null || change.to === undefined) delete element[match[2]!];
    else element[match[2]!] = change.to;
  }
  return {
    ...form,
    packingType,
    elements: elements.map((element, i) => ({ ...elementForm(element), id: form.elements[i]!.id })),
  };
}

type CatalogueEntry = { id: string; code: string; name: string; enabled: boolean; [key: string]: unknown };

/** The styles of a category. */
export const productsOf = (products: CatalogueEntry[], categoryId: string | null) =>
  products.filter((p) => p.enabled && (!categoryId || p.categoryId === categoryId));

/** The boards a style can be made of (its allowed matters), as the catalogue says. */
export function boardsFor(product: CatalogueEntry | undefined, boards: CatalogueEntry[]): CatalogueEntry[] {
  const allowed = product?.allowedMatterIds as string[] | undefined;
  return boards.filter((b) => b.enabled && (!allowed || allowed.includes(b.matterId as string)));
}

/** Keeps the board when the new style allows it, else clears it (the user picks again). */
export function withProduct(
  element: ElementForm,
  product: CatalogueEntry | undefined,
  boards: CatalogueEntry[],
): ElementForm {
  const allowed = boardsFor(product, boards);
  const keep = allowed.some((b) => b.id === element.materialReferenceId);
  return {
    ...element,
    productId: product?.id ?? null,
    categoryId: (product?.categoryId as string | undefined) ?? element.categoryId,
    materialReferenceId: keep ? element.materialReferenceId : null,
    extra: keep ? element.extra : withoutBoardDetails(element.extra),
    window: product?.windowAllowed === false ? false : element.window,
  };
}

/** Material type, grammage and composition belong to the board: dropped when it changes. */
export function withoutBoardDetails(extra: Record<string, unknown>): Record<string, unknown> {
  const { materialTypeId: _t, grammage: _g, corrugatedMaterialId: _c, matterId: _m, ...rest } = extra;
  return rest;
}

/** A problem's field errors for one element, keyed by its body field ("lengthDimension"). */
export function elementErrors(fields: Record<string, string>, index: number): Record<string, string> {
  const prefix = `/briefElements/${index}/`;
  const out: Record<string, string> = {};
  for (const [pointer, message] of Object.entries(fields)) {
    if (pointer === `/briefElements/${index}`) out._ = message;
    else if (pointer.startsWith(prefix)) {
      // A variant's name or artwork reference lands on its own input (`variantName.<j>`).
      const variant = /^decorationsCount\/(\d+)\/(name|artworkReference)$/.exec(pointer.slice(prefix.length));
      const field = variant
        ? `${variant[2] === 'name' ? 'variantName' : 'artworkReference'}.${variant[1]}`
        : pointer.slice(prefix.length).split('/')[0]!;
      out[field] ??= message;
    }
  }
  return out;
}

/** A problem the form itself sees: the catalogue sentence (`common.fieldProblems.<key>`) and its values. */
export type FormIssue = { key: string; values?: Record<string, unknown> };

/** The largest quantity of a variant the API takes. */
const MAX_QUANTITY = 50_000_000;
/** The longest name or artwork reference of a variant the API takes. */
const VARIANT_TEXT = 100;

/**
 * What is wrong with the form before any call (issue 26): a required choice or size left empty, a
 * size or quantity out of range. Keyed by the pointer the API would use (a variant's quantity by
 * `/briefElements/<i>/quantity.<j>`, which the API has not). While any is present the form is not
 * priced (the shown price is marked stale) and not saved.
 */
export function formIssues(form: BriefForm): Record<string, FormIssue> {
  const issues: Record<string, FormIssue> = {};
  if (form.companyId === null && form.projectId === null) issues['/companyId'] = { key: 'required' };
  const positive = (pointer: string, value: number | '') => {
    if (value === '') issues[pointer] = { key: 'required' };
    else if (!(value > 0)) issues[pointer] = { key: 'exclusiveMin', values: { n: 0 } };
  };
  form.elements.forEach((e, i) => {
    const at = (field: string) => `/briefElements/${i}/${field}`;
    if (!e.productId) issues[at('productId')] = { key: 'required' };
    if (!e.materialReferenceId) issues[at('materialReferenceId')] = { key: 'required' };
    positive(at('lengthDimension'), e.length);
    positive(at('widthDimension'), e.width);
    if (e.height !== '' && e.height < 0) issues[at('heightDimension')] = { key: 'min', values: { n: 0 } };
    if (e.foil)
      positive(
        at('hotStampings'),
        e.foilWidth === '' || e.foilHeight === '' ? '' : Math.min(e.foilWidth, e.foilHeight),
      );
    if (e.embossing)
      positive(
        at('embossings'),
        e.embossWidth === '' || e.embossHeight === '' ? '' : Math.min(e.embossWidth, e.embossHeight),
      );
    if (e.window) {
      positive(at('windowWidth'), e.windowWidth);
      positive(at('windowHeight'), e.windowHeight);
    }
    e.quantities.forEach((q, j) => {
      const pointer = at(`quantity.${j}`);
      if (q === '') issues[pointer] = { key: 'required' };
      else if (!Number.isInteger(q)) issues[pointer] = { key: 'integer' };
      else if (q < 1) issues[pointer] = { key: 'min', values: { n: 1 } };
      else if (q > MAX_QUANTITY) issues[pointer] = { key: 'max', values: { n: MAX_QUANTITY } };
      // A variant's name and artwork reference: at most VARIANT_TEXT characters (the API's limit).
      for (const [field, value] of [
        ['variantName', e.variantNames[j]],
        ['artworkReference', e.artworkReferences[j]],
      ] as const) {
        if ((value?.trim().length ?? 0) > VARIANT_TEXT)
          issues[at(`${field}.${j}`)] = {
            key: 'maxLength',
            values: { n: VARIANT_TEXT, count: VARIANT_TEXT },
          };
      }
    });
  });
  return issues;
}
