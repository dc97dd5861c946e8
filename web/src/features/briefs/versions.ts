/**
 * What changed between two priced versions of a brief. Each version carries the request it priced
 * (`input` of GET /briefs/{id}/predictions: the brief-level levers and the elements, in the field
 * names of POST /briefs); the differences are worked out here, field by field, for people to read.
 */

export type VersionInput = {
  packingType?: string;
  palletType?: string;
  deliveryZoneId?: string;
  commercialMargin?: number;
  briefElements?: Record<string, unknown>[];
  [key: string]: unknown;
};

/** One difference: where (`element` null for the brief itself), which field, the two values. */
export type Difference = { element: number | null; field: string; from: unknown; to: unknown };

/** Brief-level fields that change a price. */
export const BRIEF_FIELDS = ['packingType', 'palletType', 'deliveryZoneId', 'commercialMargin'] as const;

/** Element fields people read, in the configurator's order (quantities, finishes' sizes included). */
export const ELEMENT_FIELDS = [
  'productId',
  'lengthDimension',
  'widthDimension',
  'heightDimension',
  'materialReferenceId',
  'grammage',
  'quantities',
  'wantDecoration',
  'printingProcess',
  'sidePrinted',
  'rectoColorCount',
  'versoColorCount',
  'inkCoverage',
  'wantVarnishRecto',
  'wantLaminationRecto',
  'hotStampings',
  'embossings',
  'window',
  'layoutCounts',
  'commercialMargin',
] as const;

export type ElementField = (typeof ELEMENT_FIELDS)[number];

/** The value of one readable field of an element (a few are built from several API fields). */
export function elementValue(element: Record<string, unknown> | undefined, field: ElementField): unknown {
  if (!element) return undefined;
  switch (field) {
    case 'quantities': {
      const list = (element.decorationsCount as { decorationIndex: number; quantity: number }[]) ?? [];
      return [...list].sort((a, b) => a.decorationIndex - b.decorationIndex).map((d) => d.quantity);
    }
    case 'hotStampings':
      return element.wantStampingRecto ? (element.hotStampings ?? []) : undefined;
    case 'embossings':
      return element.wantEmbossingDebossingRecto ? (element.embossings ?? []) : undefined;
    case 'window':
      return element.wantWindow ? { width: element.windowWidth, height: element.windowHeight } : undefined;
    case 'wantVarnishRecto':
    case 'wantLaminationRecto':
    case 'wantDecoration':
      return element[field] === true;
    case 'printingProcess':
      // No process given: the engine priced every applicable one and kept the cheapest.
      return element.wantDecoration === true ? (element.printingProcess ?? 'cheapest') : undefined;
    case 'sidePrinted':
    case 'rectoColorCount':
    case 'versoColorCount':
    case 'inkCoverage':
      // Printing details mean nothing on an unprinted element.
      return element.wantDecoration === true ? element[field] : undefined;
    default:
      return element[field];
  }
}

/** Equality of JSON values (key order ignored; undefined, null and [] all mean "none"). */
export function same(a: unknown, b: unknown): boolean {
  const none = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0);
  if (none(a) && none(b)) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((value, i) => same(value, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

const byPosition = (input: VersionInput | undefined) => {
  const map = new Map<number, Record<string, unknown>>();
  for (const e of input?.briefElements ?? []) map.set(e.position as number, e);
  return map;
};

/**
 * The differences from `before` to `after`: brief-level fields, then each element by position
 * (an element added or removed is one difference with field `element`).
 */
export function differences(before: VersionInput | undefined, after: VersionInput | undefined): Difference[] {
  const out: Difference[] = [];
  for (const field of BRIEF_FIELDS) {
    if (!same(before?.[field], after?.[field]))
      out.push({ element: null, field, from: before?.[field], to: after?.[field] });
  }
  const a = byPosition(before);
  const b = byPosition(after);
  const positions = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
  for (const position of positions) {
    const from = a.get(position);
    const to = b.get(position);
    if (!from || !to) {
      out.push({ element: position, field: 'element', from: from?.productId, to: to?.productId });
      continue;
    }
    for (const field of ELEMENT_FIELDS) {
      const x = elementValue(from, field);
      const y = elementValue(to, field);
      if (!same(x, y)) out.push({ element: position, field, from: x, to: y });
    }
  }
  return out;
}
