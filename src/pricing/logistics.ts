/**
 * Logistics: units per shipping case (or bundle), cases per pallet layer and layers up to the
 * pallet's height and weight limits, number of pallets, gross weight, and the delivery cost of
 * the brief by destination zone.
 *
 * Units ship knocked down (folded flat): the die-line's knocked-down footprint and thickness.
 */
import type { Catalogue, DeliveryZone, PackingCase, Pallet } from './catalogue.ts';
import type { DieLine } from './geometry/die-line.ts';
import { bestCount } from './imposition.ts';
import type { BriefPalletType, PackingType } from './input.ts';

export interface PackingPlan {
  packingType: PackingType;
  package: { id: string; code: string; name: string; kind: 'SHIPPING_CASE' | 'BUNDLE' };
  /** Weight of one unit, kg. */
  unitWeightKg: number;
  unitsPerPackage: number;
  /** Outside dimensions of a full package, mm. */
  packageLength: number;
  packageWidth: number;
  packageHeight: number;
  /** Gross weight of one full package, kg. */
  packageWeightKg: number;
  packagePrice: number;
  packages: number;
  pallet: { id: string; code: string; name: string; type: BriefPalletType };
  palletPrice: number;
  packagesPerLayer: number;
  layers: number;
  packagesPerPallet: number;
  pallets: number;
  /** Pallets per full truck and full trucks (a part load counts as one). */
  palletsPerTruck: number;
  trucks: number;
  /** Loaded pallet: height (deck + layers) and gross weight of a full pallet. */
  palletLoadedHeightMm: number;
  palletGrossWeightKg: number;
  /** Packing labour rate of this package (cases or bundles per hour), when the catalogue gives one. */
  packagesPerHour: number | null;
  netWeightKg: number;
  grossWeightKg: number;
  notes: string[];
}

/** Inner floor of a 13.6 m curtain-sider, mm. */
const TRUCK_FLOOR = { length: 13600, width: 2450 };

export function palletsPerTruck(pallet: Pallet): number {
  if (pallet.perTruck !== undefined && pallet.perTruck >= 1) return Math.floor(pallet.perTruck);
  return Math.max(1, bestCount(TRUCK_FLOOR.length, TRUCK_FLOOR.width, pallet.length, pallet.width));
}

function bestStacking(item: [number, number, number], box: [number, number, number]): number {
  const [a, b, c] = item;
  const permutations: [number, number, number][] = [
    [a, b, c],
    [a, c, b],
    [b, a, c],
    [b, c, a],
    [c, a, b],
    [c, b, a],
  ];
  let best = 0;
  for (const [x, y, z] of permutations) {
    if (x <= 0 || y <= 0 || z <= 0) continue;
    const count =
      Math.floor(box[0] / x + 1e-9) * Math.floor(box[1] / y + 1e-9) * Math.floor(box[2] / z + 1e-9);
    best = Math.max(best, count);
  }
  return best;
}

function unitsInCase(item: [number, number, number], unitWeightKg: number, packingCase: PackingCase): number {
  const byVolume = bestStacking(item, [packingCase.length, packingCase.width, packingCase.height]);
  const byWeight = Math.floor((packingCase.maxWeightKg - packingCase.tareKg) / unitWeightKg + 1e-9);
  return Math.max(0, Math.min(byVolume, byWeight));
}

/**
 * Units per bundle: up to the bundle's height and weight cap, but a few less when that fills the
 * pallet's height better (bundles of 33 x 6 mm = 198 mm give 7 layers in 1,456 mm; bundles of 30
 * give 8: 240 boxes a pallet instead of 231). Only sizes from 3/4 of the cap are considered, so
 * bundles stay about as many as the cap gives; ties go to the larger bundle.
 */
function bundleSize(
  cap: number,
  item: [number, number, number],
  unitWeightKg: number,
  tareKg: number,
  pallet: Pallet,
): number {
  const height = pallet.maxLoadedHeightMm - pallet.deckHeightMm;
  const perLayer = Math.max(1, bestCount(pallet.length, pallet.width, item[0], item[1]));
  const perPallet = (n: number) => {
    const layers = Math.max(1, Math.floor(height / (n * item[2]) + 1e-9));
    const byWeight = Math.max(
      1,
      Math.floor((pallet.maxGrossWeightKg - pallet.tareKg) / (n * unitWeightKg + tareKg) + 1e-9),
    );
    return n * Math.min(perLayer * layers, byWeight);
  };
  let best = cap;
  let bestUnits = perPallet(cap);
  for (let n = cap - 1; n >= Math.max(1, Math.ceil(cap * 0.75)); n--) {
    const units = perPallet(n);
    if (units > bestUnits) {
      best = n;
      bestUnits = units;
    }
  }
  return best;
}

export function findPallet(catalogue: Catalogue, type: BriefPalletType): Pallet | undefined {
  return catalogue.pallets.find((pallet) => pallet.type === type);
}

/** What delivery and margin the packing choice is weighed with (issue 30: landed cost). */
export interface LandedCostBasis {
  /** The brief's delivery zone (none: ex works, delivery not part of the choice). */
  zone?: DeliveryZone | undefined;
  /** The element's margin: cases and pallets are product cost, sold at cost / (1 - m). */
  commercialMargin: number;
  /**
   * Hourly rate of the packer when packing is charged by the package (speedBasis PACKAGE): each
   * case is made up, closed, labelled and palletised at its `packagesPerHour`, so a case holding
   * few units costs handling as well as board. Absent: handling left out of the choice.
   */
  packerHourlyRate?: number;
}

interface PackageChoice {
  packingCase: PackingCase;
  units: number;
  length: number;
  width: number;
  height: number;
}

interface Palletised {
  pallet: Pallet;
  packagesPerLayer: number;
  layers: number;
  packagesPerPallet: number;
  pallets: number;
  packageWeightKg: number;
  notes: string[];
}

/**
 * Packages on a pallet: per layer the best pattern of both orientations and mixed rows, layers up
 * to the height limit, capped by the weight limit. A package wider than the brief's pallet in
 * both orientations is never loaded overhanging: it goes on the cheapest larger pallet of the
 * catalogue that takes it (with a note), or, when none does, this way of packing is refused (null).
 */
function palletise(
  catalogue: Catalogue,
  chosen: PackageChoice,
  unitWeightKg: number,
  quantity: number,
  palletType: BriefPalletType,
): Palletised | null {
  const asked = findPallet(catalogue, palletType)!;
  const footprint = (p: Pallet) => bestCount(p.length, p.width, chosen.length, chosen.width);
  let pallet = asked;
  const notes: string[] = [];
  if (footprint(asked) === 0) {
    const larger = catalogue.pallets
      .filter((p) => footprint(p) > 0)
      .sort((a, b) => a.price - b.price || a.code.localeCompare(b.code))[0];
    if (!larger) return null;
    pallet = larger;
    notes.push(
      `package ${Math.round(chosen.length)} x ${Math.round(chosen.width)} mm overhangs the ${asked.name}: loaded on the ${larger.name}`,
    );
  }
  const packageWeightKg = chosen.units * unitWeightKg + chosen.packingCase.tareKg;
  const packagesPerLayer = footprint(pallet);
  let layers = Math.floor((pallet.maxLoadedHeightMm - pallet.deckHeightMm) / chosen.height + 1e-9);
  if (layers < 1) {
    layers = 1;
    notes.push('package taller than the pallet height limit: one layer');
  }
  const byWeight = Math.max(
    1,
    Math.floor((pallet.maxGrossWeightKg - pallet.tareKg) / packageWeightKg + 1e-9),
  );
  const packagesPerPallet = Math.max(1, Math.min(packagesPerLayer * layers, byWeight));
  const packages = Math.ceil(quantity / chosen.units);
  return {
    pallet,
    packagesPerLayer,
    layers,
    packagesPerPallet,
    pallets: Math.ceil(packages / packagesPerPallet),
    packageWeightKg,
    notes,
  };
}

/**
 * Landed cost of a way of packing, at price: cases, pallets and case handling as the costing
 * charges them (proportional to the quantity) marked up with the product, plus the delivery of its
 * whole pallets to the zone (that element alone: the zone's minimum charge applies).
 */
export function landedCost(
  quantity: number,
  unitsPerPackage: number,
  packagePrice: number,
  packagesPerPallet: number,
  palletPrice: number,
  pallets: number,
  basis: LandedCostBasis,
  packagesPerHour?: number,
): number {
  const handling =
    basis.packerHourlyRate !== undefined && packagesPerHour !== undefined && packagesPerHour > 0
      ? (quantity / unitsPerPackage / packagesPerHour) * basis.packerHourlyRate
      : 0;
  const packing =
    (quantity / unitsPerPackage) * packagePrice +
    (quantity / (unitsPerPackage * packagesPerPallet)) * palletPrice +
    handling;
  return packing / (1 - basis.commercialMargin) + quoteDelivery(basis.zone, pallets).cost;
}

/** Packing refused: no pallet of the catalogue takes the package without overhang. */
export interface PackingRefusal {
  refused: string;
}

export function isRefusal(plan: PackingPlan | PackingRefusal): plan is PackingRefusal {
  return (plan as PackingRefusal).refused !== undefined;
}

/**
 * The cheapest way to pack and ship: the shipping case whose landed cost (cases + pallets +
 * delivery to the zone) is lowest - not the case cheapest per unit, which may fill many more
 * pallets (issue 30: 194,047 crash-locks in 34 pallets of XL cases, 19 of M cases); bundles when
 * asked for, for corrugated cases unless the settings say otherwise, or when no case holds a
 * unit. Case outside = inside + 2 x wall in length and width, + 4 x wall in height (flaps double).
 */
export function planPacking(
  catalogue: Catalogue,
  dieLine: DieLine,
  grammage: number,
  quantity: number,
  requestedPackingType: PackingType,
  palletType: BriefPalletType,
  corrugated = false,
  basis: LandedCostBasis = { commercialMargin: 0 },
): PackingPlan | PackingRefusal {
  let packingType = requestedPackingType;
  const notes: string[] = [];
  const unitWeightKg = (dieLine.areaMm2 / 1e6) * (grammage / 1000);
  const kd = dieLine.knockedDown;
  const item: [number, number, number] = [kd.length, kd.width, Math.max(kd.thickness, 0.01)];
  let chosen: PackageChoice | null = null;
  let loaded: Palletised | null = null;
  if (packingType === 'SHIPPING_CASE' && corrugated && catalogue.settings.corrugatedPacking !== 'AS_BRIEF') {
    if (catalogue.packingCases.some((c) => c.kind === 'BUNDLE')) {
      notes.push('corrugated cases ship in strapped bundles (settings.corrugatedPacking)');
      packingType = 'BUNDLE';
    }
  }
  if (packingType === 'SHIPPING_CASE') {
    let bestLanded = Number.POSITIVE_INFINITY;
    let bestPerUnit = Number.POSITIVE_INFINITY;
    for (const packingCase of catalogue.packingCases) {
      if (packingCase.kind !== 'SHIPPING_CASE') continue;
      const units = unitsInCase(item, unitWeightKg, packingCase);
      if (units < 1) continue;
      const option: PackageChoice = {
        packingCase,
        units,
        length: packingCase.length + 2 * packingCase.wallThicknessMm,
        width: packingCase.width + 2 * packingCase.wallThicknessMm,
        height: packingCase.height + 4 * packingCase.wallThicknessMm,
      };
      const onPallet = palletise(catalogue, option, unitWeightKg, quantity, palletType);
      if (!onPallet) continue;
      const landed = landedCost(
        quantity,
        units,
        packingCase.price,
        onPallet.packagesPerPallet,
        onPallet.pallet.price,
        onPallet.pallets,
        basis,
        packingCase.packagesPerHour,
      );
      const perUnit = packingCase.price / units;
      // Ties (to the cent of a thousandth) go to the case cheaper per unit, then catalogue order.
      if (
        landed < bestLanded - 1e-9 ||
        (Math.abs(landed - bestLanded) <= 1e-9 && perUnit < bestPerUnit - 1e-12)
      ) {
        chosen = option;
        loaded = onPallet;
        bestLanded = landed;
        bestPerUnit = perUnit;
      }
    }
    if (!chosen) notes.push('no shipping case holds a unit; packed in bundles');
  }
  if (!chosen) {
    const bundle = catalogue.packingCases.find((c) => c.kind === 'BUNDLE');
    const maxHeight = bundle?.maxStackHeightMm ?? 250;
    const byHeight = Math.max(1, Math.floor(maxHeight / item[2] + 1e-9));
    const byWeight = bundle
      ? Math.max(1, Math.floor((bundle.maxWeightKg - bundle.tareKg) / unitWeightKg + 1e-9))
      : byHeight;
    const units = bundleSize(
      Math.min(byHeight, byWeight),
      item,
      unitWeightKg,
      bundle?.tareKg ?? 0,
      findPallet(catalogue, palletType)!,
    );
    const packingCase: PackingCase = bundle ?? {
      id: 'BUNDLE',
      code: 'BUNDLE',
      name: 'Strapped bundle',
      kind: 'BUNDLE',
      length: 0,
      width: 0,
      height: 0,
      wallThicknessMm: 0,
      maxWeightKg: 0,
      price: 0,
      tareKg: 0,
    };
    chosen = { packingCase, units, length: item[0], width: item[1], height: units * item[2] };
    loaded = palletise(catalogue, chosen, unitWeightKg, quantity, palletType);
    if (!loaded) {
      const asked = findPallet(catalogue, palletType)!;
      return {
        refused: `a ${Math.round(item[0])} x ${Math.round(item[1])} mm bundle overhangs every pallet of the catalogue (${asked.name} asked); no pallet takes it without overhang`,
      };
    }
  }
  const { pallet, packagesPerLayer, layers, packagesPerPallet, pallets, packageWeightKg } = loaded!;
  notes.push(...loaded!.notes);
  const packages = Math.ceil(quantity / chosen.units);
  const netWeightKg = quantity * unitWeightKg;
  const perTruck = palletsPerTruck(pallet);
  const layersUsed = Math.min(layers, Math.ceil(packagesPerPallet / packagesPerLayer));
  return {
    packingType: chosen.packingCase.kind,
    package: {
      id: chosen.packingCase.id,
      code: chosen.packingCase.code,
      name: chosen.packingCase.name,
      kind: chosen.packingCase.kind,
    },
    unitWeightKg,
    unitsPerPackage: chosen.units,
    packageLength: chosen.length,
    packageWidth: chosen.width,
    packageHeight: chosen.height,
    packageWeightKg,
    packagePrice: chosen.packingCase.price,
    packages,
    pallet: { id: pallet.id, code: pallet.code, name: pallet.name, type: pallet.type },
    palletPrice: pallet.price,
    packagesPerLayer,
    layers,
    packagesPerPallet,
    pallets,
    palletsPerTruck: perTruck,
    trucks: Math.ceil(pallets / perTruck),
    palletLoadedHeightMm: pallet.deckHeightMm + layersUsed * chosen.height,
    palletGrossWeightKg: pallet.tareKg + packagesPerPallet * packageWeightKg,
    packagesPerHour: chosen.packingCase.packagesPerHour ?? null,
    netWeightKg,
    grossWeightKg: netWeightKg + packages * chosen.packingCase.tareKg + pallets * pallet.tareKg,
    notes,
  };
}

export interface DeliveryQuote {
  zone: { id: string; code: string; name: string } | null;
  pallets: number;
  /** Unrounded delivery cost of the whole brief. */
  cost: number;
  minimumApplied: boolean;
}

/** Delivery of all pallets of the brief to one zone: price per pallet, with a minimum charge. */
export function quoteDelivery(zone: DeliveryZone | undefined, pallets: number): DeliveryQuote {
  if (!zone) return { zone: null, pallets, cost: 0, minimumApplied: false };
  const byPallet = pallets * zone.pricePerPallet;
  return {
    zone: { id: zone.id, code: zone.code, name: zone.name },
    pallets,
    cost: Math.max(byPallet, zone.minimumPrice),
    minimumApplied: zone.minimumPrice > byPallet,
  };
}
