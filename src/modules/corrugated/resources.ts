/**
 * The seven corrugated resources of HIPE's n8n node, mapped onto the estimating catalogue
 * (`catalogue_entries`). Where the engine has the record, HIPE's resource is that record:
 *
 * - corrugated materials = material references (boards) of the corrugated matter (`CORR-B-KK`...);
 * - flutes = material types of the corrugated matter (`B-FLUTE`...);
 * - material compositions = the engine's corrugated compositions (`corrugatedMaterials`), priced
 *   by area (`pricePerSquareMetre`), which briefs name in `corrugatedMaterialId`.
 *
 * The others are records of their own kind, which the engine does not read: suppliers, liners
 * (the papers of a composition), formats (sheet sizes) and composition prices (a composition's
 * purchase price per m2 over a validity period; the one valid today in the organisation's base
 * currency becomes the composition's `pricePerSquareMetre`, see prices.ts).
 */

import type { Executor } from '../../db/client.ts';
import { assertDatesInOrder } from '../../platform/date-order.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { type EntityDescriptor, entity } from '../../platform/events.ts';
import { present } from '../catalogue/service.ts';
import {
  bothOf,
  type Condition,
  corrugatedMatterId,
  dataNumber,
  dataNumberIs,
  dataText,
  dataTextIs,
  ENTRY_SORTS,
  type Entry,
  type EntryValues,
  findMany,
  findOne,
  liveEntryData,
  liveOf,
  NO_ENTRY,
  nameContains,
  validOn,
} from './repository.ts';

export type Body = Record<string, unknown>;

export interface Resource {
  /** Path under /api (and the node's), e.g. `corrugated-suppliers`. */
  path: string;
  /** One and many, for operation ids: `CorrugatedSupplier`, `CorrugatedSuppliers`. */
  one: string;
  many: string;
  kind: string;
  entity: EntityDescriptor;
  label: string;
  /** The condition beyond the kind (flutes and materials: of the corrugated matter). */
  scope?: (db: Executor, organisationId: string) => Promise<Condition | undefined>;
  /** List filters: name -> condition (throws 400 for a value of the wrong type). */
  filters: Record<string, (value: string) => Condition>;
  sorts: Record<string, Condition>;
  defaultSort: string;
  /** The stored values of a new entry (current undefined) or of a changed one. */
  build(
    db: Executor,
    organisationId: string,
    body: Body,
    current: Entry | undefined,
    at: string,
  ): Promise<Build>;
  /** Lookups the answers need (e.g. the flute of a board), read once per request. */
  lookups?: (db: Executor, organisationId: string) => Promise<Map<string, unknown>>;
  show(entry: Entry, lookups: Map<string, unknown>): Record<string, unknown>;
}

export type Build = Omit<EntryValues, 'code'> & { code?: string };

const nameOf = (entry: Entry) => entry.name;

// ---- value helpers -----------------------------------------------------------------------------

const issue = (pointer: string, message: string) => ({ pointer, message, in: 'body' as const });

/** A reference to another record of the organisation that does not exist: 422 with a pointer. */
export const invalidReference = (pointer: string, what: string) =>
  new AppError('invalid_reference', `Unknown ${what}`, {
    issues: [issue(pointer, `is not ${what} of the organisation`)],
  });

const numberIs = (field: string) => (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) {
    throw badRequest(`${field} must be a number`, [
      { pointer: `/${field}`, message: 'must be a number', in: 'query' },
    ]);
  }
  return dataNumberIs(field, n);
};
const textIs = (field: string) => (value: string) => dataTextIs(field, value);

/** The value of a body property sent under either name (both with different values: 400). */
export function either(body: Body, ours: string, theirs: string, at: string): unknown {
  const a = body[ours];
  const b = body[theirs];
  if (a !== undefined && b !== undefined && JSON.stringify(a) !== JSON.stringify(b)) {
    throw badRequest(`${theirs} is another name of ${ours} and their values differ; send one of them`, [
      issue(`${at}/${theirs}`, `differs from ${at}/${ours}`),
    ]);
  }
  return a !== undefined ? a : b;
}

/** The optional fields of `body` present (not undefined), "" read as null. */
function pick(body: Body, fields: readonly string[]) {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (body[f] !== undefined) out[f] = body[f] === '' ? null : body[f];
  return out;
}

const withData = (current: Entry | undefined, changes: Record<string, unknown>) => ({
  ...(current?.data ?? {}),
  ...changes,
});

const ofCorrugatedMatter = async (db: Executor, organisationId: string) => {
  const matter = await corrugatedMatterId(db, organisationId);
  // No corrugated matter in the catalogue: none of its flutes or boards either.
  return matter ? dataTextIs('matterId', matter) : NO_ENTRY;
};

async function requireMatter(db: Executor, organisationId: string) {
  const matter = await corrugatedMatterId(db, organisationId);
  if (!matter) {
    throw new AppError('no_corrugated_matter', 'The catalogue has no corrugated matter');
  }
  return matter;
}

// ---- the resources -----------------------------------------------------------------------------

export const suppliers: Resource = {
  path: 'corrugated-suppliers',
  one: 'CorrugatedSupplier',
  many: 'CorrugatedSuppliers',
  kind: 'corrugatedSuppliers',
  entity: entity('CORRUGATED_SUPPLIER', 'corrugated_suppliers'),
  label: 'Corrugated supplier',
  filters: { name: nameContains },
  sorts: ENTRY_SORTS,
  defaultSort: 'name',
  async build(_db, _org, body, current) {
    return {
      name: (body.name as string | undefined) ?? current?.name ?? '',
      enabled: (body.enabled as boolean | undefined) ?? current?.enabled ?? true,
      data: withData(current, pick(body, ['contactInfo'])),
    };
  },
  show: (entry) => ({ contactInfo: null, ...present(entry) }),
};

export const flutes: Resource = {
  path: 'corrugated-flutes',
  one: 'CorrugatedFlute',
  many: 'CorrugatedFlutes',
  kind: 'materialTypes',
  entity: entity('CORRUGATED_FLUTE', 'corrugated_flutes'),
  label: 'Corrugated flute',
  scope: ofCorrugatedMatter,
  filters: { name: nameContains },
  sorts: { ...ENTRY_SORTS, height: dataNumber('thickness'), thickness: dataNumber('thickness') },
  defaultSort: 'name',
  async build(db, org, body, current) {
    const name = (body.name as string | undefined) ?? current?.name ?? '';
    const changes = pick(body, ['thickness', 'outsideGain', 'insideLoss', 'flute']);
    if (!current) {
      changes.matterId = await requireMatter(db, org);
      changes.flute ??= name;
    }
    return {
      name,
      enabled: (body.enabled as boolean | undefined) ?? current?.enabled ?? true,
      data: withData(current, changes),
    };
  },
  show: (entry) => ({ thickness: null, outsideGain: null, insideLoss: null, ...present(entry) }),
};

export const liners: Resource = {
  path: 'corrugated-liners',
  one: 'CorrugatedLiner',
  many: 'CorrugatedLiners',
  kind: 'corrugatedLiners',
  entity: entity('CORRUGATED_LINER', 'corrugated_liners'),
  label: 'Corrugated liner',
  filters: {
    name: nameContains,
    weight: numberIs('weight'),
    color: textIs('color'),
    type: textIs('type'),
  },
  sorts: {
    ...ENTRY_SORTS,
    weight: dataNumber('weight'),
    color: dataText('color'),
    type: dataText('type'),
  },
  defaultSort: 'name',
  async build(_db, _org, body, current) {
    return {
      name: (body.name as string | undefined) ?? current?.name ?? '',
      enabled: (body.enabled as boolean | undefined) ?? current?.enabled ?? true,
      data: withData(
        current,
        pick(body, ['weight', 'label', 'category', 'inkPorosity', 'varnishPorosity', 'color', 'type']),
      ),
    };
  },
  show: (entry) => ({
    weight: null,
    label: null,
    category: null,
    inkPorosity: null,
    varnishPorosity: null,
    color: null,
    type: null,
    ...present(entry),
  }),
};

export const formats: Resource = {
  path: 'corrugated-formats',
  one: 'CorrugatedFormat',
  many: 'CorrugatedFormats',
  kind: 'corrugatedFormats',
  entity: entity('CORRUGATED_FORMAT', 'corrugated_formats'),
  label: 'Corrugated format',
  filters: { width: numberIs('width'), length: numberIs('length') },
  sorts: { width: dataNumber('width'), length: dataNumber('length'), createdAt: ENTRY_SORTS.createdAt },
  defaultSort: 'width',
  async build(_db, _org, body, current) {
    const data = withData(current, pick(body, ['width', 'length']));
    const sized = (d: Record<string, unknown>) => `${d.width} x ${d.length} mm`;
    // A format is named by its size unless it was given a name.
    const named = current && current.name !== sized(current.data) ? current.name : undefined;
    return {
      name: (body.name as string | undefined) ?? named ?? sized(data),
      enabled: (body.enabled as boolean | undefined) ?? current?.enabled ?? true,
      data,
    };
  },
  show: (entry) => present(entry),
};

export const materials: Resource = {
  path: 'corrugated-materials',
  one: 'CorrugatedMaterial',
  many: 'CorrugatedMaterials',
  kind: 'materialReferences',
  entity: entity('CORRUGATED_MATERIAL', 'corrugated_materials'),
  label: 'Corrugated material',
  scope: ofCorrugatedMatter,
  filters: { name: nameContains },
  sorts: ENTRY_SORTS,
  defaultSort: 'name',
  async build(db, org, body, current) {
    const changes = pick(body, ['description']);
    // A board created here has no grammage, caliper or price: the engine cannot price it, so it
    // stays disabled (left out of pricing); the engine's boards are those of the catalogue.
    if (!current) changes.matterId = await requireMatter(db, org);
    return {
      name: (body.name as string | undefined) ?? current?.name ?? '',
      enabled: current?.enabled ?? false,
      data: withData(current, changes),
    };
  },
  show: (entry) => ({ description: null, ...present(entry) }),
};

export const compositions: Resource = {
  path: 'corrugated-material-compositions',
  one: 'CorrugatedMaterialComposition',
  many: 'CorrugatedMaterialCompositions',
  kind: 'corrugatedMaterials',
  entity: entity('CORRUGATED_MATERIAL_COMPOSITION', 'corrugated_material_compositions'),
  label: 'Corrugated material composition',
  filters: {
    corrugatedMaterial: textIs('materialReferenceId'),
    materialReferenceId: textIs('materialReferenceId'),
    flute: textIs('fluteId'),
    supplierId: textIs('supplierId'),
  },
  sorts: { ...ENTRY_SORTS, gsm: dataNumber('grammage'), grammage: dataNumber('grammage') },
  defaultSort: 'createdAt',
  async build(db, org, body, current, at) {
    const materialId = either(body, 'materialReferenceId', 'corrugatedMaterial', at) as string | undefined;
    const fluteId = either(body, 'fluteId', 'flute', at) as string | undefined;
    const linerIds = either(body, 'linerIds', 'liners', at) as string[] | undefined;
    const grammage = either(body, 'grammage', 'gsm', at) as number | undefined;
    const code = either(body, 'code', 'reference', at) as string | undefined;
    const data: Record<string, unknown> = { ...(current?.data ?? {}) };
    const pointer = (ours: string, theirs: string) => `${at}/${body[theirs] !== undefined ? theirs : ours}`;
    if (!current) {
      const missing = [
        ['corrugatedMaterial', materialId],
        ['flute', fluteId],
        ['liners', linerIds],
      ].filter(([, value]) => value === undefined);
      if (missing.length) {
        throw badRequest(
          'A composition needs its corrugated material, flute and liners',
          missing.map(([name]) => issue(`${at}/${name}`, 'is required')),
        );
      }
    }

    if (materialId !== undefined) {
      const [board] = await findMany(
        db,
        bothOf(liveOf(org, 'materialReferences'), await ofCorrugatedMatter(db, org)),
        [materialId],
      );
      if (!board)
        throw invalidReference(pointer('materialReferenceId', 'corrugatedMaterial'), 'a corrugated material');
      data.materialReferenceId = materialId;
    }
    if (fluteId !== undefined) {
      const [flute] = await findMany(
        db,
        bothOf(liveOf(org, 'materialTypes'), await ofCorrugatedMatter(db, org)),
        [fluteId],
      );
      if (!flute) throw invalidReference(pointer('fluteId', 'flute'), 'a corrugated flute');
      data.fluteId = fluteId;
    }
    // The flute must be the board's own when the board names one (e.g. CORR-B-KK is B flute).
    if (data.fluteId && data.materialReferenceId && (materialId !== undefined || fluteId !== undefined)) {
      const board = await findOne(db, liveOf(org, 'materialReferences'), data.materialReferenceId as string);
      const own = board?.data.materialTypeId as string | undefined;
      if (own && own !== data.fluteId) {
        throw new AppError('flute_mismatch', 'The flute is not the flute of the corrugated material', {
          issues: [issue(pointer('fluteId', 'flute'), `the corrugated material is made with flute ${own}`)],
        });
      }
    }
    let linerRows: Entry[] | undefined;
    if (linerIds !== undefined) {
      const found = await findMany(db, liveOf(org, 'corrugatedLiners'), [...new Set(linerIds)]);
      const byId = new Map(found.map((l) => [l.id, l]));
      linerIds.forEach((id, i) => {
        if (!byId.has(id))
          throw invalidReference(`${pointer('linerIds', 'liners')}/${i}`, 'a corrugated liner');
      });
      linerRows = linerIds.map((id) => byId.get(id)!);
      data.linerIds = linerIds;
    }
    const supplierId = body.supplierId === '' ? null : (body.supplierId as string | null | undefined);
    if (supplierId) {
      if (!(await findOne(db, liveOf(org, 'corrugatedSuppliers'), supplierId)))
        throw invalidReference(`${at}/supplierId`, 'a corrugated supplier');
    }
    if (supplierId !== undefined) data.supplierId = supplierId;
    // Liners sent without a composition or a grammage: both follow from the liners, in order
    // (names joined by "/", weights summed: flute take-up is not modelled).
    if (body.composition !== undefined) data.composition = body.composition;
    else if (linerRows) data.composition = linerRows.map(nameOf).join('/');
    if (grammage !== undefined) data.grammage = grammage;
    else if (linerRows?.every((l) => typeof l.data.weight === 'number'))
      data.grammage = linerRows.reduce((sum, l) => sum + (l.data.weight as number), 0);
    if (body.pricePerSquareMetre !== undefined) data.pricePerSquareMetre = body.pricePerSquareMetre;
    return {
      ...(code !== undefined ? { code } : {}),
      name: (body.name as string | undefined) ?? current?.name ?? `${data.composition ?? 'composition'}`,
      enabled: (body.enabled as boolean | undefined) ?? current?.enabled ?? true,
      data,
    };
  },
  lookups: async (db, org) => {
    // The flute of a composition that names none is its board's (the catalogue's compositions).
    const boards = await liveEntryData(db, org, 'materialReferences');
    return new Map(boards.map((b) => [b.id, b.data.materialTypeId ?? null]));
  },
  show(entry, lookups) {
    const d = entry.data;
    const shown = present(entry);
    const fluteId =
      (d.fluteId as string | undefined) ?? (lookups.get(d.materialReferenceId as string) as string) ?? null;
    return {
      ...shown,
      materialReferenceId: d.materialReferenceId ?? null,
      corrugatedMaterial: d.materialReferenceId ?? null,
      materialId: d.materialReferenceId ?? null,
      fluteId,
      flute: fluteId,
      linerIds: d.linerIds ?? [],
      liners: d.linerIds ?? [],
      composition: d.composition ?? null,
      grammage: d.grammage ?? null,
      gsm: d.grammage ?? null,
      reference: entry.code,
      supplierId: d.supplierId ?? null,
      pricePerSquareMetre: d.pricePerSquareMetre ?? null,
    };
  },
};

export const prices: Resource = {
  path: 'corrugated-material-composition-prices',
  one: 'CorrugatedMaterialCompositionPrice',
  many: 'CorrugatedMaterialCompositionPrices',
  kind: 'corrugatedCompositionPrices',
  entity: entity('CORRUGATED_MATERIAL_COMPOSITION_PRICE', 'corrugated_material_composition_prices'),
  label: 'Corrugated material composition price',
  filters: {
    corrugatedMaterialComposition: textIs('compositionId'),
    currency: (value) => dataTextIs('currency', value.toUpperCase()),
    validOnDate: (value) => {
      const day = dateOrNull(value, '/validOnDate', 'query');
      return validOn(day);
    },
  },
  sorts: { price: dataNumber('price'), validFrom: dataText('validFrom'), createdAt: ENTRY_SORTS.createdAt },
  defaultSort: 'validFrom',
  async build(db, org, body, current, at) {
    const data: Record<string, unknown> = { ...(current?.data ?? {}) };
    const compositionId = body.corrugatedMaterialComposition as string | undefined;
    let composition: Entry | undefined;
    if (compositionId !== undefined) {
      composition = await findOne(db, liveOf(org, 'corrugatedMaterials'), compositionId);
      if (!composition)
        throw invalidReference(`${at}/corrugatedMaterialComposition`, 'a corrugated material composition');
      data.compositionId = compositionId;
    }
    if (body.price !== undefined) data.price = body.price;
    if (body.currency !== undefined) data.currency = (body.currency as string).toUpperCase();
    for (const f of ['validFrom', 'validTo'] as const) {
      if (body[f] !== undefined) data[f] = dateOrNull(body[f] as string | null, `${at}/${f}`, 'body');
    }
    assertDatesInOrder(
      { validFrom: data.validFrom as string | null, validTo: data.validTo as string | null },
      [['validFrom', 'validTo']],
      at,
    );
    composition ??= current
      ? await findOne(db, liveOf(org, 'corrugatedMaterials'), data.compositionId as string)
      : undefined;
    return {
      name: `${composition?.code ?? 'composition'} ${data.price} ${data.currency}`,
      enabled: current?.enabled ?? true,
      data,
    };
  },
  show(entry) {
    const d = entry.data;
    return {
      ...present(entry),
      corrugatedMaterialComposition: d.compositionId ?? null,
      price: d.price ?? null,
      currency: d.currency ?? null,
      validFrom: d.validFrom ?? null,
      validTo: d.validTo ?? null,
    };
  },
};

/** An ISO date or date-time (n8n sends `2026-01-01T00:00:00` without zone: read as UTC); "" = none. */
function dateOrNull(value: string | null, pointer: string, where: 'body' | 'query'): string | null {
  if (value === null || value === '') return null;
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(value)
    ? `${value}${value.length > 10 ? 'Z' : ''}`
    : value;
  const time = Date.parse(iso);
  if (!Number.isFinite(time) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw badRequest(`${pointer.slice(1)} is not a date`, [
      { pointer, message: 'must be an ISO 8601 date or date-time', in: where },
    ]);
  }
  return new Date(time).toISOString();
}

export const RESOURCES = [materials, compositions, prices, formats, suppliers, flutes, liners] as const;
