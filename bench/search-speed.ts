// Per-query cost of the in-memory search, without HTTP: 3,000 of the distinct five-word queries bench/search.ts sends
// (every 19th), lexical and hybrid, three rounds each; CPU time per query is steadier than wall time on a shared machine.
//   node --import tsx bench/search-speed.ts
//   SPEED_OUT=/tmp/a.txt node --import tsx bench/search-speed.ts   # also writes each query's top 10 (compare runs with cmp)
import fs from 'node:fs';
import os from 'node:os';
import { readSnapshot, DEFAULT_SNAPSHOT } from '../src/catalog/snapshot.ts';
import { CatalogSearchIndex } from '../src/catalog/search-index.ts';
import { DEFAULT_VECTORS, loadToolVectors } from '../src/catalog/tool-vectors.ts';
import { loadStaticEmbedder } from '../src/semantic/index.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import type { ToolRecord } from '../src/catalog/types.ts';
const tools: ToolRecord[] = [];
for await (const tool of readSnapshot(DEFAULT_SNAPSHOT)) tools.push(tool);
const index = CatalogSearchIndex.build(tools);
const embedder = await loadStaticEmbedder(loadConfig({ TOOLDEX_HOME: os.tmpdir() }).TOOLDEX_SEMANTIC_MODEL_DIR);
index.vectors = await loadToolVectors(embedder, index, DEFAULT_VECTORS, createLogger('warn'));
const distinct = [...new Set(tools.map((tool) => tool.shortDescription.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ')
  .split(/\s+/).filter(Boolean).slice(0, 5).join(' ')).filter((q) => q.length > 8))];
const qs = distinct.filter((_, i) => i % 19 === 0).slice(0, 3000);
const embedStarted = performance.now();
const vecs: Float32Array[] = [];
for (const q of qs) vecs.push((await embedder.embed([index.embeddingText(q)], 'query'))[0]!);
// The meaning model's share of a new query: one query vector (static model), beside the search's own time below.
console.log('embed (static model) ms/query', ((performance.now() - embedStarted) / qs.length).toFixed(3), `(load ${os.loadavg()[0]!.toFixed(2)})`);
const checksum: string[] = [];
for (const mode of ['lexical', 'hybrid', 'lexical', 'hybrid', 'lexical', 'hybrid']) {
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < qs.length; i++) {
    const t = performance.now();
    const hits = index.search(qs[i]!, { limit: 10 }, mode === 'hybrid' ? vecs[i] : undefined);
    times.push(performance.now() - t);
    if (mode === 'hybrid' && checksum.length < qs.length) checksum.push(hits.map((h) => h.tool.slug).join(','));
  }
  const cpu = process.cpuUsage(cpu0);
  times.sort((a, b) => a - b);
  console.log(mode, 'cpu/query', ((cpu.user + cpu.system) / 1000 / qs.length).toFixed(3), 'mean', (times.reduce((a, b) => a + b, 0) / times.length).toFixed(3), 'p50', times[times.length >> 1]!.toFixed(3), 'p99', times[Math.floor(times.length * 0.99)]!.toFixed(3), `(load ${os.loadavg()[0]!.toFixed(2)})`);
}
if (process.env.SPEED_OUT) fs.writeFileSync(process.env.SPEED_OUT, checksum.join('\n'));
