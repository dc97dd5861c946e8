/**
 * Node 20 against Node 24 on the same benchmarks, in one run: `npm run bench:node-versions`.
 *
 * Runs bench/pricing.ts (pure computation) and bench/http.ts (the compiled service and a bare
 * Fastify baseline on PostgreSQL, each in a child process started with the parent's Node) under
 * the machine's own Node (NODE_OLD, default the first `node` on the PATH outside node_modules) and
 * under the project's Node 24 (this process's), alternating which goes first each round, and prints
 * the median of each figure over the rounds side by side. Alternating keeps a slow phase of a
 * shared machine from landing on one runtime only.
 *
 * ROUNDS (default 3), ITERATIONS (pricing, default 500), BENCH_SECONDS (http, default 5).
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ITERATIONS = process.env.ITERATIONS ?? '500';
const SECONDS = process.env.BENCH_SECONDS ?? '5';

function machineNode(): string {
  if (process.env.NODE_OLD) return process.env.NODE_OLD;
  const path = (process.env.PATH ?? '').split(':').filter((dir) => dir && !dir.includes('node_modules'));
  for (const dir of path) {
    try {
      execFileSync(`${dir}/node`, ['--version']);
      return `${dir}/node`;
    } catch {
      // not in this directory
    }
  }
  throw new Error('No Node.js outside node_modules on the PATH: set NODE_OLD');
}

type Figures = Record<string, number>;

function run(node: string, script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['--import', 'tsx', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${script} exited ${code}`)),
    );
  });
}

/** Median ms of each pricing case, from bench/pricing.ts's table. */
function pricingFigures(output: string): Figures {
  const figures: Figures = {};
  for (const line of output.split('\n')) {
    const match = /^(.+?)\s{2,}\d+\s+([\d.]+) ms\s+[\d.]+ ms\s+[\d.]+ ms$/.exec(line.trim());
    if (match) figures[`pricing: ${match[1]} (median ms)`] = Number(match[2]);
  }
  return figures;
}

/** req/s and p50 of each HTTP run, from bench/http.ts's markdown table. */
function httpFigures(output: string): Figures {
  const figures: Figures = {};
  for (const line of output.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 7 || !/^\d+$/.test(cells[2] ?? '')) continue;
    figures[`http: ${cells[1]} (req/s)`] = Number(cells[2]);
  }
  return figures;
}

async function measure(node: string): Promise<Figures> {
  const pricing = await run(node, 'bench/pricing.ts', { ITERATIONS });
  const http = await run(node, 'bench/http.ts', { BENCH_SECONDS: SECONDS });
  return { ...pricingFigures(pricing), ...httpFigures(http) };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const oldNode = machineNode();
const newNode = process.execPath;
const version = (node: string) => execFileSync(node, ['--version']).toString().trim();
const runtimes = [
  { label: version(oldNode), node: oldNode },
  { label: version(newNode), node: newNode },
];
if (runtimes[0]!.label === runtimes[1]!.label) {
  console.log(`Both runtimes are ${runtimes[0]!.label}: nothing to compare (set NODE_OLD).`);
  process.exit(0);
}

const rounds: Record<string, Figures[]> = { [runtimes[0]!.label]: [], [runtimes[1]!.label]: [] };
const loads: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? runtimes : [...runtimes].reverse();
  for (const runtime of order) {
    console.error(`round ${round + 1}/${ROUNDS}: ${runtime.label}`);
    rounds[runtime.label]!.push(await measure(runtime.node));
    loads.push(loadavg()[0]!);
  }
}

const [a, b] = runtimes.map((r) => r.label) as [string, string];
console.log(
  `\n${new Date().toISOString().slice(0, 10)} · ${cpus().length} cores (${cpus()[0]?.model.trim()}) · ` +
    `${ROUNDS} alternating rounds · load average during the run ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}\n`,
);
console.log(`| figure (median of ${ROUNDS} rounds) | ${a} | ${b} | ${b} / ${a} |\n|---|--:|--:|--:|`);
for (const name of Object.keys(rounds[a]![0] ?? {})) {
  const old = median(rounds[a]!.map((f) => f[name]!).filter(Number.isFinite));
  const current = median(rounds[b]!.map((f) => f[name]!).filter(Number.isFinite));
  console.log(`| ${name} | ${old} | ${current} | ${(current / old).toFixed(2)} |`);
}
