/**
 * Pricing engine benchmark: prices a 3-element brief (4 decoration variants each) and runs a
 * full value analysis, many iterations after warm-up; reports median and p99 next to a trivial
 * baseline measured in the same run (a JSON deep copy of the same input).
 *
 *   npx tsx bench/pricing.ts            (npm run bench:pricing)
 *   ITERATIONS=2000 npx tsx bench/pricing.ts
 */
import os from 'node:os';
import { defaultCatalogue } from '../src/pricing/default-catalogue.ts';
import { analyseValue, type BriefInput, priceBrief } from '../src/pricing/index.ts';

const catalogue = defaultCatalogue();

const variants = (base: number) =>
  [0, 1, 2, 3].map((decorationIndex) => ({ decorationIndex, quantity: base + decorationIndex * 500 }));

const brief: BriefInput = {
  name: 'Benchmark brief',
  packingType: 'SHIPPING_CASE',
  palletType: 'EURO',
  deliveryZoneId: 'FR-NATIONAL',
  briefElements: [
    {
      position: 0,
      productId: 'STE',
      lengthDimension: 120,
      widthDimension: 40,
      heightDimension: 180,
      materialReferenceId: 'GC1-350',
      decorationsCount: variants(2000),
      wantDecoration: true,
      sidePrinted: 'RECTO',
      rectoColorCount: 4,
      versoColorCount: 0,
      wantVarnishRecto: true,
      wantStampingRecto: true,
      hotStampings: [{ color: 'gold', coverage: 0.4, width: 60, height: 25 }],
    },
    {
      position: 1,
      productId: 'CLB',
      lengthDimension: 90,
      widthDimension: 90,
      heightDimension: 220,
      materialReferenceId: 'GC1-400',
      decorationsCount: variants(1500),
      wantDecoration: true,
      sidePrinted: 'RECTO_VERSO',
      rectoColorCount: 5,
      versoColorCount: 1,
      wantLaminationRecto: true,
      wantWindow: true,
      windowWidth: 50,
      windowHeight: 120,
    },
    {
      position: 2,
      productId: '0201',
      lengthDimension: 400,
      widthDimension: 300,
      heightDimension: 250,
      materialReferenceId: 'CORR-B-KK',
      decorationsCount: variants(800),
      wantDecoration: true,
      sidePrinted: 'RECTO',
      rectoColorCount: 2,
      versoColorCount: 0,
    },
  ],
};

const ITERATIONS = Number(process.env.ITERATIONS ?? 1000);
const VA_ITERATIONS = Number(process.env.VA_ITERATIONS ?? Math.max(50, Math.round(ITERATIONS / 5)));
const WARMUP = 200;

function measure(name: string, iterations: number, fn: () => unknown) {
  for (let i = 0; i < Math.min(WARMUP, iterations); i++) fn();
  const samples: number[] = [];
  let sink = 0;
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    const result = fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (result) sink++;
  }
  samples.sort((a, b) => a - b);
  const pick = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { name, iterations, median: pick(0.5), p99: pick(0.99), min: samples[0]!, sink };
}

const results = [
  measure('baseline: JSON deep copy of the brief', ITERATIONS, () => JSON.parse(JSON.stringify(brief))),
  measure('priceBrief (3 elements x 4 variants)', ITERATIONS, () => priceBrief(brief, catalogue)),
  measure('analyseValue (full value analysis)', VA_ITERATIONS, () => analyseValue(brief, catalogue)),
];

const pad = (s: string, n: number) => s.padEnd(n);
const ms = (v: number) => `${v.toFixed(3)} ms`.padStart(11);
console.log(
  `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown cpu'}), ${new Date().toISOString().slice(0, 10)}`,
);
console.log(
  `${pad('case', 42)}${pad('iterations', 12)}${'median'.padStart(11)}${'p99'.padStart(11)}${'min'.padStart(11)}`,
);
for (const r of results) {
  console.log(`${pad(r.name, 42)}${pad(String(r.iterations), 12)}${ms(r.median)}${ms(r.p99)}${ms(r.min)}`);
}
const price = results[1]!;
const analysis = results[2]!;
console.log(
  `targets: priceBrief median < 2 ms: ${price.median < 2 ? 'met' : 'MISSED'}; analyseValue median < 50 ms: ${analysis.median < 50 ? 'met' : 'MISSED'}`,
);
