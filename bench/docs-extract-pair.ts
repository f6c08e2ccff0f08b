// Extraction by two checkouts of the code, side by side in one process: for each package (downloaded once) the
// passages of `BENCH_BEFORE`'s extractor and this checkout's, their hashes (a change meant not to alter passages must
// give the same) and each one's time, the order alternated per package so both meet the same load.
//   BENCH_BEFORE=/path/to/other/checkout BENCH_PACKAGES=npm:lodash@4.18.1,… node --import tsx bench/docs-extract-pair.ts
//   BENCH_ECOSYSTEMS=npm BENCH_STRIDE=3 …   (every 3rd distinct package of the spent docs sets, named below)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { passagesFromArtifact } from '../src/docs/documents.ts';
import { sourceFor } from '../src/docs/sources/index.ts';
import type { Ecosystem } from '../src/catalog/types.ts';

const SPENT = ['docs-fresh', 'docs-fresh-r4', 'docs-fresh-r5', 'docs-fresh-r6', 'docs-fresh-r7', 'docs-fresh-r8', 'docs-fresh-r9', 'docs-fresh-r10', 'docs-fresh-r11', 'docs-fresh-r12', 'docs-fresh-r13', 'docs-fresh-r14', 'docs-fresh-r15', 'docs-fresh-r16', 'docs-fresh-r17', 'docs-fresh-r18', 'docs-fresh-r19', 'docs-fresh-r20', 'docs-heldout', 'docs-tuning'];
const ecosystems = (process.env.BENCH_ECOSYSTEMS ?? 'npm').split(',');
const tools = process.env.BENCH_PACKAGES?.split(',') ?? [...new Set(SPENT.flatMap((set) =>
  fs.readFileSync(new URL(`./${set}.tsv`, import.meta.url), 'utf8').split('\n').map((line) => line.split('\t')[0]!)
    .filter((tool) => tool.includes('@') && ecosystems.includes(tool.split(':')[0]!))))].sort()
  .filter((_, i) => i % Number(process.env.BENCH_STRIDE ?? 1) === 0);
const before = await import(path.resolve(process.env.BENCH_BEFORE!, 'src/docs/documents.ts')) as { passagesFromArtifact: typeof passagesFromArtifact };
const config = loadConfig({ TOOLDEX_HOME: os.tmpdir() }, process.env);
const hash = (value: unknown) => crypto.createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);
let same = 0, differ = 0, failed = 0;
const totals = { before: 0, after: 0 };
const ratios: number[] = [];
for (const [i, tool] of tools.entries()) {
  const ecosystem = tool.slice(0, tool.indexOf(':')) as Ecosystem, rest = tool.slice(tool.indexOf(':') + 1);
  const name = rest.slice(0, rest.lastIndexOf('@')), version = rest.slice(rest.lastIndexOf('@') + 1);
  try {
    const artifact = await sourceFor(config, ecosystem).artifact(name, version);
    const run = async (which: 'before' | 'after') => {
      const started = performance.now();
      const result = await (which === 'before' ? before.passagesFromArtifact : passagesFromArtifact)(artifact, { ecosystem, name, version });
      return { ms: performance.now() - started, hash: hash(result), passages: result.passages.length };
    };
    const order: Array<'before' | 'after'> = i % 2 ? ['after', 'before'] : ['before', 'after'];
    const out: Record<string, { ms: number; hash: string; passages: number }> = {};
    for (const which of order) out[which] = await run(which);
    const equal = out.before!.hash === out.after!.hash;
    if (equal) same++; else differ++;
    totals.before += out.before!.ms; totals.after += out.after!.ms;
    ratios.push(out.after!.ms / out.before!.ms);
    console.log(`${tool.padEnd(44)} ${equal ? 'same' : 'DIFFER'} ${out.before!.passages}/${out.after!.passages} passages; before ${Math.round(out.before!.ms)} ms, after ${Math.round(out.after!.ms)} ms (load ${os.loadavg()[0]!.toFixed(1)})`);
  } catch (error) {
    failed++;
    console.log(`${tool} failed: ${(error as Error).message}`);
  }
}
const sorted = [...ratios].sort((a, b) => a - b);
console.log(`${tools.length} packages: same ${same}, differ ${differ}, failed ${failed}; extraction before ${Math.round(totals.before)} ms, after ${Math.round(totals.after)} ms in all; ` +
  `after/before median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)}; ${os.cpus().length} cores`);
process.exit(0);
