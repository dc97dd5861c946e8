/**
 * The parts of a quote or order line (docs/quotes.md, "Variants and tooling"): its decoration
 * variants, whose quantities and amounts are derived from the line so that they always add up to
 * it, to the cent; and its tools, named by the engine's tooling code.
 */
import type { LineTooling, LineVariant } from '../db/schema/line-parts.ts';
import { roundCents } from './money.ts';

/** A variant as the API shows it under its line: its share of the line's quantity and amount. */
export type VariantLine = {
  decorationIndex: number;
  name: string | null;
  artworkReference: string | null;
  quantity: number;
  /** Its part of the line's net goods amount (cents); null while the line has no price. */
  amount: number | null;
};

/**
 * Splits `total` into parts proportional to `weights` by the largest remainder: whole units
 * (pieces, or cents when `unit` is 0.01) that add up exactly to the total.
 */
function splitProportionally(total: number, weights: number[], unit = 1): number[] {
  const units = Math.round(total / unit);
  const sum = weights.reduce((a, b) => a + b, 0);
  if (!weights.length) return [];
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? units : 0) * unit);
  const exact = weights.map((w) => (w / sum) * units);
  const floors = exact.map(Math.floor);
  let left = units - floors.reduce((a, b) => a + b, 0);
  const order = exact
    .map((value, i) => ({ i, rest: value - floors[i]! }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]! += 1;
    left -= 1;
  }
  return floors.map((f) => (unit === 1 ? f : roundCents(f * unit)));
}

/**
 * The variant lines of a line of `quantity` pieces whose net goods amount is `amount`: the
 * stored variants' quantities scaled to the line's quantity (largest remainder, whole pieces),
 * then the amount split in proportion to those quantities (largest remainder, whole cents). Both
 * add up to the line exactly, whatever the line's quantity became (an edit, a price break).
 */
export function variantLines(
  variants: LineVariant[] | null | undefined,
  quantity: number,
  amount: number | null,
): VariantLine[] {
  if (!variants?.length) return [];
  const stored = variants.reduce((sum, v) => sum + v.quantity, 0);
  const quantities =
    stored === quantity || !Number.isInteger(quantity)
      ? variants.map((v) => v.quantity)
      : splitProportionally(
          quantity,
          variants.map((v) => v.quantity),
        );
  const amounts = amount === null ? null : splitProportionally(amount, quantities, 0.01);
  return variants.map((v, i) => ({
    decorationIndex: v.decorationIndex,
    name: v.name,
    artworkReference: v.artworkReference,
    quantity: quantities[i]!,
    amount: amounts ? amounts[i]! : null,
  }));
}

/** Whether a line's variants are worth showing as sub-lines: several, or one with a name or artwork. */
export const showsVariants = (variants: Pick<VariantLine, 'name' | 'artworkReference'>[]) =>
  variants.length > 1 || variants.some((v) => v.name || v.artworkReference);

/** The names of the engine's tooling codes (costing.ts), per language. */
export const TOOLING_NAMES: Record<string, { en: string; fr: string; de: string }> = {
  CUTTING_DIE: { en: 'Cutting die', fr: 'Forme de découpe', de: 'Stanzform' },
  ROTARY_DIE: { en: 'Rotary cutting die', fr: 'Forme de découpe rotative', de: 'Rotationsstanzform' },
  STAMPING_DIE: { en: 'Hot-foil stamping die', fr: 'Cliché de dorure', de: 'Heißprägestempel' },
  EMBOSSING_DIE: { en: 'Embossing die', fr: 'Outil de gaufrage', de: 'Prägewerkzeug' },
  BRAILLE_DIE: { en: 'Braille die', fr: 'Outil braille', de: 'Braille-Werkzeug' },
  FLEXO_PLATES: {
    en: 'Printing plates (flexo)',
    fr: 'Clichés d’impression (flexo)',
    de: 'Druckplatten (Flexo)',
  },
  TOOLING: { en: 'Tooling', fr: 'Outillage', de: 'Werkzeuge' },
};

/** A tool's name in a language: the code's name, else the stored one. */
export const toolingNameIn = (tool: Pick<LineTooling, 'code' | 'name'>, language: string) =>
  TOOLING_NAMES[tool.code]?.[language as 'en'] ?? tool.name;

/**
 * The tools of an engine variant's tooling cost lines (CostBreakdown.tooling.lines): one per
 * code, amounts summed, tools that cost nothing (an existing tool) left out.
 */
export function toolingOfCostLines(
  lines: { code: string; label: string; amount: number }[] | null | undefined,
): LineTooling[] {
  const byCode = new Map<string, LineTooling>();
  for (const line of lines ?? []) {
    const amount = Number(line.amount);
    if (!(amount > 0)) continue;
    const tool = byCode.get(line.code);
    if (tool) tool.amount = roundCents(tool.amount + amount);
    else
      byCode.set(line.code, {
        code: line.code,
        name: TOOLING_NAMES[line.code]?.en ?? line.label,
        amount: roundCents(amount),
      });
  }
  return [...byCode.values()];
}

/**
 * The tool lines of a line whose tooling is `toolingCost`: the stored tools when they add up to
 * it; otherwise (a row made before tools were kept, or a cost typed in) one "Tooling" line, so the
 * lines always add up to the line's tooling, which is counted once.
 */
export function toolingLines(tooling: LineTooling[] | null | undefined, toolingCost: number): LineTooling[] {
  if (!(toolingCost > 0)) return [];
  const tools = tooling ?? [];
  const sum = roundCents(tools.reduce((a, t) => a + t.amount, 0));
  if (tools.length && sum === roundCents(toolingCost)) return tools;
  return [{ code: 'TOOLING', name: TOOLING_NAMES.TOOLING!.en, amount: roundCents(toolingCost) }];
}
