/**
 * Pricing engine benchmark: prices a 3-element brief (4 decoration variants each) and runs a
 * full value analysis, many iterations after warm-up; reports median and p99 next to baselines
 * measured in the same run: a trivial one (a JSON deep copy of the same input) and the engine of
 * another git revision (BASELINE_REF, default `main`: its src/pricing is extracted into
 * bench/.tmp and imported beside ours). The two engines alternate sample by sample, so a load
 * change on a shared machine hits both alike; read the ratio. BASELINE_REF=none skips it.
 *
 *   npx tsx bench/pricing.ts            (npm run bench:pricing)
 *   ITERATIONS=2000 BASELINE_REF=fdfa4f5 npx tsx bench/pricing.ts
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultCatalogue } from '../src/pricing/default-catalogue.ts';
import { analyseValue, type BriefInput, priceBrief } from '../src/pricing/index.ts';

const catalogue = defaultCatalogue();

type Engine = { priceBrief: typeof priceBrief; analyseValue: typeof analyseValue };
type Baseline = Engine & { ref: string; sha: string; catalogue: ReturnType<typeof defaultCatalogue> };

/** The engine of another revision: `git archive <ref> src/pricing` into bench/.tmp, then imported. */
async function baselineEngine(ref: string): Promise<Baseline | null> {
  if (ref === 'none') return null;
  const root = resolve(import.meta.dirname, '..');
  const sha = execSync(`git rev-parse --short=10 ${ref}`, { cwd: root }).toString().trim();
  const dir = join(root, 'bench', '.tmp', `pricing-${sha}`);
  if (!existsSync(join(dir, 'src', 'pricing', 'index.ts'))) {
    mkdirSync(dir, { recursive: true });
    execSync(`git archive ${sha} src/pricing | tar -x -C "${dir}"`, { cwd: root });
  }
  const url = (file: string) => pathToFileURL(join(dir, 'src', 'pricing', file)).href;
  const engine = (await import(url('index.ts'))) as Engine;
  const { defaultCatalogue: baselineCatalogue } = (await import(url('default-catalogue.ts'))) as {
    defaultCatalogue: typeof defaultCatalogue;
  };
  return { ...engine, ref, sha, catalogue: baselineCatalogue() };
}

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

type Result = { name: string; iterations: number; median: number; p99: number; min: number };

/** Times each function `iterations` times after warm-up, the functions taking turns sample by sample
 * (in alternating order). */
function measure(iterations: number, cases: { name: string; fn: () => unknown }[]): Result[] {
  for (let i = 0; i < Math.min(WARMUP, iterations); i++) for (const c of cases) c.fn();
  const samples = cases.map(() => [] as number[]);
  let sink = 0;
  for (let i = 0; i < iterations; i++) {
    // Alternate the order too, so neither pays the other's garbage collection every time.
    const order = i % 2 === 0 ? cases.map((_, j) => j) : cases.map((_, j) => cases.length - 1 - j);
    for (const j of order) {
      const c = cases[j]!;
      const start = process.hrtime.bigint();
      const result = c.fn();
      samples[j]!.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (result) sink++;
    }
  }
  if (sink < 0) console.log(sink);
  return cases.map((c, j) => {
    const s = samples[j]!.sort((a, b) => a - b);
    const pick = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
    return { name: c.name, iterations, median: pick(0.5), p99: pick(0.99), min: s[0]! };
  });
}

const baseline = await baselineEngine(process.env.BASELINE_REF ?? 'main');
const tag = baseline ? ` [${baseline.ref} ${baseline.sha}]` : '';
const [copy, price, priceBase] = measure(ITERATIONS, [
  { name: 'baseline: JSON deep copy of the brief', fn: () => JSON.parse(JSON.stringify(brief)) },
  { name: 'priceBrief (3 elements x 4 variants)', fn: () => priceBrief(brief, catalogue) },
  ...(baseline
    ? [{ name: `  baseline priceBrief${tag}`, fn: () => baseline.priceBrief(brief, baseline.catalogue) }]
    : []),
]);
const [analysis, analysisBase] = measure(VA_ITERATIONS, [
  { name: 'analyseValue (full value analysis)', fn: () => analyseValue(brief, catalogue) },
  ...(baseline
    ? [{ name: `  baseline analyseValue${tag}`, fn: () => baseline.analyseValue(brief, baseline.catalogue) }]
    : []),
]);
const results = [
  copy!,
  price!,
  ...(priceBase ? [priceBase] : []),
  analysis!,
  ...(analysisBase ? [analysisBase] : []),
];

const pad = (s: string, n: number) => s.padEnd(n);
const ms = (v: number) => `${v.toFixed(3)} ms`.padStart(11);
console.log(
  `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown cpu'}), ${new Date().toISOString().slice(0, 16)}Z, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  `${pad('case', 42)}${pad('iterations', 12)}${'median'.padStart(11)}${'p99'.padStart(11)}${'min'.padStart(11)}`,
);
for (const r of results) {
  console.log(`${pad(r.name, 42)}${pad(String(r.iterations), 12)}${ms(r.median)}${ms(r.p99)}${ms(r.min)}`);
}
if (priceBase && analysisBase) {
  console.log(
    `ratio to baseline${tag} (median): priceBrief ${(price!.median / priceBase.median).toFixed(2)}, analyseValue ${(analysis!.median / analysisBase.median).toFixed(2)}`,
  );
}
console.log(
  `targets: priceBrief median < 2 ms: ${price!.median < 2 ? 'met' : 'MISSED'}; analyseValue median < 50 ms: ${analysis!.median < 50 ? 'met' : 'MISSED'}`,
);
