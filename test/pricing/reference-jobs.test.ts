/**
 * Reference jobs: folding cartons and corrugated cases at short, medium and long runs, priced on
 * the default catalogue, each checked against a unit-price range taken from a published source
 * (docs/pricing.md, section 10, explains each range). Prices are EUR, ex works, default margin.
 *
 * How the ranges are built from the sources (USD converted at 0.92 EUR):
 * - CLT: Custom Logo Things, "Folding Cartons Pricing Guide for Packaging Pros" (2026): a tuck-end
 *   suite at 5,000 costs USD 0.14 (12pt C1S) to 0.18 (16pt SBS) per unit = EUR 0.13-0.17,
 *   widened x0.6 / x1.6 for size and board differences: EUR 0.078-0.27 per unit, tooling apart
 *   (die charges are often quoted apart: Custom Logo Things, "Buy folding cartons wholesale: cost
 *   breakdown").
 * - WNF: Winenfood, "Understanding Custom Box Pricing in 2026": a 4-colour offset run of 500 boxes
 *   carried nearly USD 800 of plate and set-up fees that digital printing avoids. A short run can
 *   cost no more all-in than that offset alternative: (800 / q + 0.18) x 0.92 per unit, and no
 *   less than the medium-run price.
 * - LONG: a long run costs less per unit than the medium-run price (CLT upper bound) and more
 *   than its board (the BOARD line per unit, at board prices within the PRICING.md ranges).
 * - CN: CorrugatedNews, "Understanding the Corrugated Box Pricing Formula": 32 ECT B/C-flute
 *   board USD 32-45 per MSF (92.9 m2) is 45-60 % of the finished box price: EUR 0.53-0.99 per m2
 *   of sheet, for typical (medium and long) runs.
 * - FLC: First Law Comic, "How is carton box price calculated?": a good price is under USD 1 for
 *   a folding carton and under USD 2-3 for a corrugated box: upper bounds EUR 0.92 / 2.76 for
 *   short runs (all-in), lower bound the CN range.
 */
import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { type BriefElementInput, priceBrief } from '../../src/pricing/index.ts';

const catalogue = defaultCatalogue();
const USD = 0.92;

const printed = { wantDecoration: true, sidePrinted: 'RECTO' as const, versoColorCount: 0 };
const STE: Omit<BriefElementInput, 'decorationsCount'> = {
  position: 0,
  productId: 'STE',
  lengthDimension: 60,
  widthDimension: 40,
  heightDimension: 150,
  materialReferenceId: 'GC1-350',
  ...printed,
  rectoColorCount: 4,
};
const RTE: Omit<BriefElementInput, 'decorationsCount'> = {
  ...STE,
  productId: 'RTE',
  lengthDimension: 50,
  widthDimension: 50,
  heightDimension: 120,
  materialReferenceId: 'SBS-300',
  wantVarnishRecto: true,
};
const CLB: Omit<BriefElementInput, 'decorationsCount'> = {
  ...STE,
  productId: 'CLB',
  lengthDimension: 80,
  widthDimension: 60,
  heightDimension: 120,
};
const RSC: Omit<BriefElementInput, 'decorationsCount'> = {
  position: 0,
  productId: '0201',
  lengthDimension: 400,
  widthDimension: 300,
  heightDimension: 300,
  materialReferenceId: 'CORR-B-KK',
  ...printed,
  rectoColorCount: 1,
};
const PLAIN_RSC: Omit<BriefElementInput, 'decorationsCount'> = {
  position: 0,
  productId: '0201',
  lengthDimension: 300,
  widthDimension: 200,
  heightDimension: 200,
  materialReferenceId: 'CORR-C-KK',
  wantDecoration: false,
};
const MAILER: Omit<BriefElementInput, 'decorationsCount'> = {
  position: 0,
  productId: '0427',
  lengthDimension: 250,
  widthDimension: 180,
  heightDimension: 60,
  materialReferenceId: 'CORR-E-WK',
  ...printed,
  rectoColorCount: 2,
};

// Issue 30: kraft cartons, corrugated die-cut trays, digital short runs, foil/emboss short runs.
const KRAFT: Omit<BriefElementInput, 'decorationsCount'> = { ...STE, materialReferenceId: 'KRAFT-FBB-300' };
const CORR_TRAY: Omit<BriefElementInput, 'decorationsCount'> = {
  position: 0,
  productId: 'TRAY-CORR',
  lengthDimension: 300,
  widthDimension: 200,
  heightDimension: 80,
  materialReferenceId: 'CORR-B-KK',
  wantDecoration: false,
};
const PRINTED_TRAY: Omit<BriefElementInput, 'decorationsCount'> = {
  ...CORR_TRAY,
  materialReferenceId: 'CORR-E-WK',
  ...printed,
  rectoColorCount: 1,
};
const FOIL = {
  wantStampingRecto: true,
  hotStampings: [{ color: 'silver', coverage: 0.5, width: 40, height: 20 }],
};
const FOIL_CLB: Omit<BriefElementInput, 'decorationsCount'> = {
  ...CLB,
  lengthDimension: 66,
  widthDimension: 33,
  heightDimension: 48,
  ...FOIL,
};
const FOIL_STE: Omit<BriefElementInput, 'decorationsCount'> = { ...STE, ...FOIL };
const FOIL_EMBOSS_STE: Omit<BriefElementInput, 'decorationsCount'> = {
  ...FOIL_STE,
  wantEmbossingDebossingRecto: true,
  embossings: [{ type: 'EMBOSSING', width: 30, height: 15, depth: 0.5 }],
};

type Measure = 'unitPrice' | 'allIn';
type Range = (job: { quantity: number; boardPerUnit: number; sheetM2PerUnit: number }) => [number, number];

const CLT: [number, number] = [0.14 * USD * 0.6, 0.18 * USD * 1.6];
const wnf: Range = ({ quantity }) => [CLT[0], (800 / quantity + 0.18) * USD];
const long: Range = ({ boardPerUnit }) => [boardPerUnit, CLT[1]];
const cn: Range = ({ sheetM2PerUnit }) => [
  (32 / 92.9 / 0.6) * USD * sheetM2PerUnit,
  (45 / 92.9 / 0.45) * USD * sheetM2PerUnit,
];
const flcCorrugated: Range = (job) => [cn(job)[0], 3 * USD];
const flcCarton: Range = () => [CLT[0], 1 * USD];
/**
 * ISSUE30: the shadow estimate of issue 30 for the crash-lock 66 x 33 x 48 with silver foil at
 * 1,291 (built from published figures): the engine's EUR 2,008 was 34 % above it, i.e. EUR 1,498
 * all-in; the issue counts a job within 15 % of the shadow estimate as landed.
 */
const issue30: Range = ({ quantity }) => [(2008 / 1.34 / quantity) * 0.85, (2008 / 1.34 / quantity) * 1.15];

interface ReferenceJob {
  name: string;
  run: 'short' | 'medium' | 'long';
  element: Omit<BriefElementInput, 'decorationsCount'>;
  quantity: number;
  measure: Measure;
  source: string;
  range: Range;
}

const jobs: ReferenceJob[] = [
  {
    name: 'STE 60x40x150 GC1 4/0',
    run: 'short',
    element: STE,
    quantity: 500,
    measure: 'allIn',
    source: 'WNF',
    range: wnf,
  },
  {
    name: 'STE 60x40x150 GC1 4/0',
    run: 'short',
    element: STE,
    quantity: 1000,
    measure: 'allIn',
    source: 'WNF, FLC',
    range: wnf,
  },
  {
    name: 'CLB 80x60x120 GC1 4/0',
    run: 'short',
    element: CLB,
    quantity: 1000,
    measure: 'allIn',
    source: 'FLC',
    range: flcCarton,
  },
  {
    name: 'STE 60x40x150 GC1 4/0',
    run: 'medium',
    element: STE,
    quantity: 5000,
    measure: 'unitPrice',
    source: 'CLT',
    range: () => CLT,
  },
  {
    name: 'RTE 50x50x120 SBS 4/0 varnish',
    run: 'medium',
    element: RTE,
    quantity: 5000,
    measure: 'unitPrice',
    source: 'CLT',
    range: () => CLT,
  },
  {
    name: 'CLB 80x60x120 GC1 4/0',
    run: 'medium',
    element: CLB,
    quantity: 5000,
    measure: 'unitPrice',
    source: 'CLT',
    range: () => CLT,
  },
  {
    name: 'STE 60x40x150 GC1 4/0',
    run: 'long',
    element: STE,
    quantity: 100000,
    measure: 'allIn',
    source: 'LONG (CLT)',
    range: long,
  },
  {
    name: 'RTE 50x50x120 SBS 4/0 varnish',
    run: 'long',
    element: RTE,
    quantity: 50000,
    measure: 'allIn',
    source: 'LONG (CLT)',
    range: long,
  },
  {
    name: 'RSC 400x300x300 B 1/0',
    run: 'short',
    element: RSC,
    quantity: 1000,
    measure: 'allIn',
    source: 'FLC, CN',
    range: flcCorrugated,
  },
  {
    name: 'RSC 400x300x300 B 1/0',
    run: 'medium',
    element: RSC,
    quantity: 10000,
    measure: 'allIn',
    source: 'CN',
    range: cn,
  },
  {
    name: 'RSC 400x300x300 B 1/0',
    run: 'long',
    element: RSC,
    quantity: 50000,
    measure: 'allIn',
    source: 'CN',
    range: cn,
  },
  {
    name: 'RSC 300x200x200 C plain',
    run: 'short',
    element: PLAIN_RSC,
    quantity: 1000,
    measure: 'allIn',
    source: 'FLC, CN',
    range: flcCorrugated,
  },
  {
    name: 'RSC 300x200x200 C plain',
    run: 'medium',
    element: PLAIN_RSC,
    quantity: 10000,
    measure: 'allIn',
    source: 'CN',
    range: cn,
  },
  {
    name: 'RSC 300x200x200 C plain',
    run: 'long',
    element: PLAIN_RSC,
    quantity: 50000,
    measure: 'allIn',
    source: 'CN',
    range: cn,
  },
  {
    name: 'FEFCO 0427 250x180x60 E 2/0',
    run: 'short',
    element: MAILER,
    quantity: 1000,
    measure: 'allIn',
    source: 'FLC, CN',
    range: flcCorrugated,
  },
  {
    name: 'FEFCO 0427 250x180x60 E 2/0',
    run: 'long',
    element: MAILER,
    quantity: 100000,
    measure: 'allIn',
    source: 'CN',
    range: cn,
  },
  {
    name: 'STE 60x40x150 GC1 4/0 digital',
    run: 'short',
    element: STE,
    quantity: 250,
    measure: 'allIn',
    source: 'WNF',
    range: wnf,
  },
  {
    name: 'RTE 50x50x120 SBS 4/0 varnish digital',
    run: 'short',
    element: RTE,
    quantity: 300,
    measure: 'allIn',
    source: 'WNF',
    range: wnf,
  },
  {
    name: 'CLB 80x60x120 GC1 4/0 digital',
    run: 'short',
    element: CLB,
    quantity: 500,
    measure: 'allIn',
    source: 'WNF',
    range: wnf,
  },
  {
    name: 'STE 60x40x150 kraft FBB 4/0',
    run: 'short',
    element: KRAFT,
    quantity: 500,
    measure: 'allIn',
    source: 'WNF',
    range: wnf,
  },
  {
    name: 'STE 60x40x150 kraft FBB 4/0',
    run: 'short',
    element: KRAFT,
    quantity: 1000,
    measure: 'allIn',
    source: 'FLC',
    range: flcCarton,
  },
  {
    name: 'STE 60x40x150 kraft FBB 4/0',
    run: 'medium',
    element: KRAFT,
    quantity: 5000,
    measure: 'unitPrice',
    source: 'CLT',
    range: () => CLT,
  },
  {
    name: 'STE 60x40x150 kraft FBB 4/0',
    run: 'long',
    element: KRAFT,
    quantity: 100000,
    measure: 'allIn',
    source: 'LONG (CLT)',
    range: long,
  },
  {
    name: 'Corrugated tray 300x200x80 B plain',
    run: 'short',
    element: CORR_TRAY,
    quantity: 1000,
    measure: 'allIn',
    source: 'FLC, CN',
    range: flcCorrugated,
  },
  {
    name: 'Corrugated tray 300x200x80 B plain',
    run: 'medium',
    element: CORR_TRAY,
    quantity: 10000,
    measure: 'unitPrice',
    source: 'CN',
    range: cn,
  },
  {
    name: 'Corrugated tray 300x200x80 B plain',
    run: 'long',
    element: CORR_TRAY,
    quantity: 50000,
    measure: 'unitPrice',
    source: 'CN',
    range: cn,
  },
  {
    name: 'Corrugated tray 300x200x80 E 1/0',
    run: 'medium',
    element: PRINTED_TRAY,
    quantity: 20000,
    measure: 'unitPrice',
    source: 'CN',
    range: cn,
  },
  {
    name: 'CLB 66x33x48 GC1 4/0 silver foil',
    run: 'short',
    element: FOIL_CLB,
    quantity: 1291,
    measure: 'allIn',
    source: 'ISSUE30',
    range: issue30,
  },
  {
    name: 'STE 60x40x150 GC1 4/0 silver foil',
    run: 'short',
    element: FOIL_STE,
    quantity: 3000,
    measure: 'allIn',
    source: 'FLC',
    range: flcCarton,
  },
  {
    name: 'STE 60x40x150 GC1 4/0 foil + embossing',
    run: 'short',
    element: FOIL_EMBOSS_STE,
    quantity: 5000,
    measure: 'allIn',
    source: 'FLC',
    range: flcCarton,
  },
];

describe('reference jobs: unit prices within published ranges', () => {
  it('covers folding cartons and corrugated at short, medium and long runs', () => {
    expect(jobs.length).toBeGreaterThanOrEqual(30);
    for (const kind of [
      ['STE', 'RTE', 'CLB'],
      ['0201', '0427'],
    ]) {
      for (const run of ['short', 'medium', 'long'] as const) {
        expect(
          jobs.some((j) => kind.includes(j.element.productId) && j.run === run),
          `${kind} ${run}`,
        ).toBe(true);
      }
    }
  });

  it.each(jobs.map((j) => [`${j.name} x ${j.quantity} (${j.run}, ${j.source})`, j] as const))(
    '%s',
    (_, job) => {
      const prediction = priceBrief(
        {
          briefElements: [
            { ...job.element, decorationsCount: [{ decorationIndex: 0, quantity: job.quantity }] },
          ],
        },
        catalogue,
      );
      const v = prediction.briefPrice.predictionRequestsComputed.find((x) => x.selected)!;
      const value = job.measure === 'unitPrice' ? v.unitPrice : v.rankingTotal / job.quantity;
      const [low, high] = job.range({
        quantity: job.quantity,
        boardPerUnit: v.costBreakdown.materials.total / job.quantity,
        sheetM2PerUnit: (v.sheetSizeWidth * v.sheetSizeHeight) / 1e6 / v.layoutCount,
      });
      // REFERENCE_JOBS_TABLE=<file>: append the docs table row (docs/pricing.md, section 10).
      if (process.env.REFERENCE_JOBS_TABLE) {
        appendFileSync(
          process.env.REFERENCE_JOBS_TABLE,
          `| ${job.name} | ${job.quantity} | ${job.run} | ${job.measure} | ${low.toFixed(3)}-${high.toFixed(3)} | ${value.toFixed(4)} | ${job.source} |\n`,
        );
      }
      expect(
        value,
        `${job.measure} ${value.toFixed(4)} in [${low.toFixed(4)}, ${high.toFixed(4)}]`,
      ).toBeGreaterThanOrEqual(low);
      expect(
        value,
        `${job.measure} ${value.toFixed(4)} in [${low.toFixed(4)}, ${high.toFixed(4)}]`,
      ).toBeLessThanOrEqual(high);
    },
  );
});
