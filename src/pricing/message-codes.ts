/**
 * The codes the engine names the things it tells a user with, as values (the types of output.ts
 * and catalogue.ts are derived from them): clients word each in their user's language, and the
 * web app's catalogue test (web/src/i18n/catalogue.test.ts) walks these lists so a new code
 * without a sentence in every language fails. No imports: the web app's test reads this file.
 */

/** The value-analysis levers (`optimisations[].type`). */
export const OPTIMISATION_TYPES = [
  'INCREASE_QUANTITY',
  'CHANGE_MATERIAL',
  'SIMPLIFY_FINISHING',
  'ADJUST_DIMENSIONS',
  'BUNDLE_PACKING',
  'CHEAPER_TOTAL_ROUTE',
  'GANG_RUN',
] as const;

/** The operations of a route (`operations[].operation.code`). */
export const OPERATION_CODES = [
  'PRINT_OFFSET',
  'PRINT_DIGITAL',
  'PRINT_FLEXO',
  'LAMINATION',
  'VARNISH',
  'AQUEOUS_COATING',
  'HOT_FOIL_STAMPING',
  'EMBOSSING',
  'DIE_CUTTING',
  'ROTARY_DIE_CUTTING',
  'GUILLOTINE_CUTTING',
  'SLOT_FOLD_GLUE',
  'WINDOW_PATCHING',
  'FOLDING_GLUING',
  'PACKING',
] as const;

/** The stages of the cost shares of value analysis (`costShares[].key`). */
export const COST_SHARE_KEYS = [
  'materials',
  'printing',
  'finishing',
  'converting',
  'packing',
  'margin',
  'tooling',
  'delivery',
] as const;

/** The printing processes an element may be priced with (input `printingProcess`). */
export const PRINTING_PROCESSES = ['offset', 'digital', 'flexo'] as const;

/** The natures of the cost breakdown (`breakdown.natures[].key`). */
export const COST_NATURE_KEYS = [
  'MATERIAL',
  'CONSUMABLE',
  'MACHINE',
  'PACKAGING',
  'MARGIN',
  'TOOLING',
  'LOGISTICS',
] as const;
