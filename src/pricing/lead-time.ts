/**
 * Lead time as a breakdown (issue 30): machine hours alone said "1-2 working days" for 20,000
 * printed and laminated cartons, which no converter promises. The lead time of an element is
 *
 *   max(board procurement, tooling after artwork approval) + queue + production + transport
 *
 * - board: from stock (`boardStockDays`) when the element needs at most `boardStockLimitKg`,
 *   else a mill order (`boardMillOrderDays`); corrugated sheets are made to size on the
 *   corrugator (`corrugatorDays`);
 * - tooling: dies, flexo and offset plates are made after artwork approval, in parallel: the
 *   longest of them (`toolingDays` per tooling line, `platesDays`); an existing tool needs none;
 * - queue: waiting for the machines once board and tools are in (`queueDays`);
 * - production: each operation's set-up and run time in whole working days of
 *   `hoursPerWorkingDay` (at least one: each waits for the previous one's pile), added up;
 *   packing adds none (cases are filled at the last operation's delivery);
 * - transport: the zone's `transitDays` (else `transportDays`); 0 ex works (collected).
 *
 * Pure: figures from the catalogue, quantities from the costed route.
 */
import type { DeliveryZone, LeadTimeSettings, PricingSettings } from './catalogue.ts';
import { at, type RouteCosting } from './costing.ts';
import type { ResolvedElement } from './resolve.ts';

/**
 * Defaults (docs/pricing.md, section "Lead time", lists each figure's source or "estimate"):
 * corrugated board about 4 days and tooling design about 3 days (Wise's Boxes, "Box making - lead
 * times"); the rest are estimates.
 */
export const DEFAULT_LEAD_TIME: Required<LeadTimeSettings> = {
  hoursPerWorkingDay: 8,
  boardStockDays: 2,
  boardMillOrderDays: 15,
  boardStockLimitKg: 3000,
  corrugatorDays: 4,
  toolingDays: {
    CUTTING_DIE: 3,
    ROTARY_DIE: 5,
    STAMPING_DIE: 5,
    EMBOSSING_DIE: 7,
    BRAILLE_DIE: 7,
    FLEXO_PLATES: 4,
  },
  platesDays: 1,
  queueDays: 5,
  transportDays: 2,
};

/** Merged once per `settings.leadTime` object (replaced, not edited, when a catalogue changes). */
const MERGED = new WeakMap<object, Required<LeadTimeSettings>>();
const NONE = {};

export function leadTimeSettingsOf(settings: PricingSettings): Required<LeadTimeSettings> {
  const key = settings.leadTime ?? NONE;
  let merged = MERGED.get(key);
  if (!merged) {
    merged = mergeLeadTimeSettings(settings);
    MERGED.set(key, merged);
  }
  return merged;
}

function mergeLeadTimeSettings(settings: PricingSettings): Required<LeadTimeSettings> {
  const given = settings.leadTime ?? {};
  return {
    ...DEFAULT_LEAD_TIME,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
    toolingDays: { ...DEFAULT_LEAD_TIME.toolingDays, ...(given.toolingDays ?? {}) },
  } as Required<LeadTimeSettings>;
}

export interface LeadTimeOperation {
  position: number;
  code: string;
  name: string;
  /** Set-up + run time of all its steps (decoration variants, passes, inline steps), hours. */
  hours: number;
  /** Whole working days: ceil(hours / hoursPerWorkingDay), at least 1; packing 0 (at the line). */
  days: number;
}

export interface LeadTimeBreakdown {
  /** Working days from artwork approval (and order) to delivery. */
  workingDays: number;
  hoursPerWorkingDay: number;
  board: { source: 'STOCK' | 'MILL_ORDER' | 'CORRUGATOR'; kg: number; days: number };
  /** Tools and plates made after artwork approval, in parallel: the longest sets the days. */
  tooling: { days: number; items: { code: string; label: string; days: number }[] };
  /** Board and tooling run in parallel: max of the two. */
  procurementDays: number;
  queueDays: number;
  operations: LeadTimeOperation[];
  /** Sum of the operations' hours. */
  productionHours: number;
  /** Sum of the operations' days, at least 1. */
  productionDays: number;
  transport: { zone: string | null; days: number };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The lead time of one costed route (a process variant of an element). */
export function leadTimeOf(
  costing: RouteCosting,
  element: ResolvedElement,
  settings: PricingSettings,
  zone: DeliveryZone | undefined,
): LeadTimeBreakdown {
  const lt = leadTimeSettingsOf(settings);
  const hoursPerDay = lt.hoursPerWorkingDay > 0 ? lt.hoursPerWorkingDay : 8;
  const boardLine = costing.lines.find((l) => l.code === 'BOARD');
  const kg = boardLine
    ? boardLine.unit === 'kg'
      ? at(boardLine.quantity)
      : at(costing.boardSheets) * costing.sheetKg
    : 0;
  const board: LeadTimeBreakdown['board'] = element.reference.cutToSize
    ? { source: 'CORRUGATOR', kg: round2(kg), days: lt.corrugatorDays }
    : kg <= lt.boardStockLimitKg
      ? { source: 'STOCK', kg: round2(kg), days: lt.boardStockDays }
      : { source: 'MILL_ORDER', kg: round2(kg), days: lt.boardMillOrderDays };
  const items: LeadTimeBreakdown['tooling']['items'] = [];
  const seen = new Set<string>();
  for (const line of costing.lines) {
    if (line.category !== 'tooling' || line.existingTool || seen.has(line.code)) continue;
    seen.add(line.code);
    items.push({
      code: line.code,
      label: line.label,
      days: lt.toolingDays[line.code] ?? lt.toolingDays.CUTTING_DIE ?? 3,
    });
  }
  if (costing.lines.some((l) => l.code === 'OFFSET_PLATES')) {
    items.push({ code: 'OFFSET_PLATES', label: 'Offset plates (computer-to-plate)', days: lt.platesDays });
  }
  const toolingDays = items.reduce((max, i) => Math.max(max, i.days), 0);
  // One entry per operation: its steps (decoration variants, passes) run on one machine one after
  // the other; inline steps run in the pass of the step before them.
  const operations: LeadTimeOperation[] = [];
  for (const step of costing.steps) {
    const code = step.template.operation.code;
    const hours = step.setupHours + at(step.rollingHours);
    const last = operations[operations.length - 1];
    if (last && (last.code === code || step.template.inline)) last.hours += hours;
    else
      operations.push({
        position: operations.length,
        code,
        name: step.template.operation.name,
        hours,
        days: 0,
      });
  }
  // An operation takes whole working days (the next one starts on the pile it hands on: "1 day
  // for each manufacturing step", Wise's Boxes); packing fills cases at the last operation's
  // delivery, so it adds no day of its own.
  for (const o of operations) {
    o.days = o.code === 'PACKING' ? 0 : Math.max(1, Math.ceil(o.hours / hoursPerDay - 1e-9));
    o.hours = round2(o.hours);
  }
  const productionHours = costing.steps.reduce((sum, s) => sum + s.setupHours + at(s.rollingHours), 0);
  const productionDays = Math.max(
    1,
    operations.reduce((sum, o) => sum + o.days, 0),
  );
  const procurementDays = Math.max(board.days, toolingDays);
  const transportDays = zone ? (zone.transitDays ?? lt.transportDays) : 0;
  return {
    workingDays: procurementDays + lt.queueDays + productionDays + transportDays,
    hoursPerWorkingDay: hoursPerDay,
    board,
    tooling: { days: toolingDays, items },
    procurementDays,
    queueDays: lt.queueDays,
    operations,
    productionHours: round2(productionHours),
    productionDays,
    transport: { zone: zone?.code ?? null, days: transportDays },
  };
}
