// Throughput of the background embedding of a package's passages (src/docs/semantic.ts) by the number of passages sent
// to the encoder per step (YIELD_EVERY: between two looks at the foreground): passages/s at steps of 1, 8 and 32, in
// turn, each over its own passages of one real package, on the encoder as the service configures it (threads, batch).
//   BENCH_PACKAGE=npm:lodash@4.18.1 BENCH_STEPS=1,8,32 BENCH_PER_STEP=96 BENCH_ROUNDS=2 node --import tsx bench/docs-embed-step.ts
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { passagesFromArtifact } from '../src/docs/documents.ts';
import { passageSummary } from '../src/docs/semantic.ts';
import { sourceFor } from '../src/docs/sources/index.ts';
import { loadTransformerEmbedder, SHIPPED_ENCODER_DIR } from '../src/semantic/transformer-model.ts';
import type { Ecosystem } from '../src/catalog/types.ts';

const config = loadConfig({ TOOLDEX_HOME: os.tmpdir() }, process.env);
const tool = process.env.BENCH_PACKAGE ?? 'npm:lodash@4.18.1';
const steps = (process.env.BENCH_STEPS ?? '1,8,32').split(',').map(Number);
const perStep = Number(process.env.BENCH_PER_STEP ?? 96);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const ecosystem = tool.slice(0, tool.indexOf(':')) as Ecosystem, rest = tool.slice(tool.indexOf(':') + 1);
const name = rest.slice(0, rest.lastIndexOf('@')), version = rest.slice(rest.lastIndexOf('@') + 1);
const { passages } = await passagesFromArtifact(await sourceFor(config, ecosystem).artifact(name, version), { ecosystem, name, version });
const texts = passages.map((p) => passageSummary({ title: p.title ?? null, symbol: p.symbol ?? null, headings: p.headings, content: p.content }));
const encoder = await loadTransformerEmbedder(SHIPPED_ENCODER_DIR, { threads: config.TOOLDEX_SEMANTIC_ENCODER_THREADS, batch: config.TOOLDEX_SEMANTIC_ENCODER_BATCH });
await encoder.embed(texts.slice(0, 4), 'passage', 'background'); // the threads started, not counted
console.log(`${tool}: ${texts.length} passages; encoder threads ${encoder.threads}, batch ${encoder.batch}; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
let next = 4;
const rates = new Map<number, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const step of steps) {
    const mine = texts.slice(next, next + perStep);
    next += perStep;
    const started = performance.now();
    for (let i = 0; i < mine.length; i += step) await encoder.embed(mine.slice(i, i + step), 'passage', 'background');
    const rate = mine.length / ((performance.now() - started) / 1000);
    rates.set(step, [...(rates.get(step) ?? []), rate]);
    console.log(`round ${round + 1} step ${String(step).padStart(2)}: ${rate.toFixed(1)} passages/s (${mine.length}, load ${os.loadavg()[0]!.toFixed(1)})`);
  }
}
for (const [step, list] of rates) console.log(`step ${String(step).padStart(2)}: ${list.map((r) => r.toFixed(1)).join(', ')} passages/s`);
await encoder.close?.();
process.exit(0);
