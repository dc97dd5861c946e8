/**
 * What the engine prices: a brief with its elements, mirroring the spec's Brief and BriefElement
 * field names. Ids refer to catalogue records (`Catalogue` in catalogue.ts).
 */
import type { PRINTING_PROCESSES } from './message-codes.ts';

export type SidePrinted = 'RECTO' | 'VERSO' | 'RECTO_VERSO';
export type PrintingProcess = (typeof PRINTING_PROCESSES)[number];
export type PackingType = 'SHIPPING_CASE' | 'BUNDLE';
export type BriefPalletType = 'EURO' | 'STANDARD' | 'CUSTOM';

export interface DecorationCount {
  /** Variant number 0..11, unique within the element. */
  decorationIndex: number;
  /** Order quantity of the variant (units, positive integer). */
  quantity: number;
}

export interface LayoutCount {
  /** Blanks per sheet of the existing tool. */
  quantity: number;
  /** The machine that holds the tool (die-cutter, foil press, flexo line). */
  machineId: string;
}

export interface HotStamping {
  color: string;
  /** Engraved fraction of the stamp rectangle, 0..1. */
  coverage: number;
  /** mm */
  width: number;
  height: number;
}

export interface EmbossingDebossing {
  type: 'EMBOSSING' | 'DEBOSSING' | 'BRAILLE';
  /** mm */
  width: number;
  height: number;
  depth: number;
}

export interface BriefElementInput {
  /** 0-indexed, unique within the brief. */
  position: number;
  productId: string;
  productCategoryId?: string;
  /** Inside dimensions, mm. Height is ignored (may be 0) for flat items. */
  lengthDimension: number;
  widthDimension: number;
  heightDimension: number;
  matterId?: string;
  materialTypeId?: string;
  materialReferenceId: string;
  /** g/m2; when given it must match the material reference (or corrugated composition). */
  grammage?: number;
  corrugatedMaterialId?: string;
  decorationsCount: DecorationCount[];
  wantDecoration: boolean;
  sidePrinted?: SidePrinted;
  rectoColorCount?: number;
  versoColorCount?: number;
  /** Ink coverage as a fraction of the printed area (0..1); catalogue default when absent. */
  inkCoverage?: number;
  /** Forces one printing process; when absent the engine prices every applicable process. */
  printingProcess?: PrintingProcess;
  wantLaminationRecto?: boolean;
  wantVarnishRecto?: boolean;
  wantStampingRecto?: boolean;
  hotStampings?: HotStamping[];
  wantEmbossingDebossingRecto?: boolean;
  embossings?: EmbossingDebossing[];
  wantWindow?: boolean;
  /** Window opening in the front panel, mm. */
  windowWidth?: number;
  windowHeight?: number;
  /** Existing tools: tooling for that machine is not charged and the layout keeps its ups. */
  layoutCounts?: LayoutCount[];
  /** 0..0.99; overrides the brief margin. */
  commercialMargin?: number;
}

export interface BriefInput {
  name?: string;
  packingType?: PackingType;
  palletType?: BriefPalletType;
  deliveryZoneId?: string;
  /** 0..0.99; default from the catalogue settings. */
  commercialMargin?: number;
  briefElements: BriefElementInput[];
}
