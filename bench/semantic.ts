// `npm run bench:semantic`: cost and quality of the semantic component. Speed: model load, embedding per query and per
// passage (p50), top-k over 60,000 vectors (binary + rescoring vs an exact scan), memory. Quality: the static model vs
// BM25 (and two plain blends) on the catalog's labelled queries and on docs passages of bench/docs-questions.tsv.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import MiniSearch from 'minisearch';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { allPassages } from '../src/docs/repository.ts';
import { createLogger } from '../src/log.ts';
import { loadStaticEmbedder, VectorIndex, type StaticEmbedder } from '../src/semantic/index.ts';
import { freshHome } from '../test/helpers/stores.ts';
import { HELDOUT_FILE, loadLabelledQueries, TUNING_FILE, type LabelledQuery } from './search-quality.ts';

const TOTAL_VECTORS = 60_000;
const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const line = (name: string, value: string) => console.log(`${name.padEnd(44)} ${value}`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// BENCH_ENCODER_BATCH=1: only the sentence encoder's batching figures (bench/encoder-batch.ts).
if (process.env.BENCH_ENCODER_BATCH) {
  await import('./encoder-batch.ts');
  process.exit(0);
}
console.log(`semantic bench ${new Date().toISOString()} node ${process.version} cpus=${os.cpus().length} ${os.cpus()[0]?.model ?? ''} load=${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

// ---- model load and memory
const config = loadConfig();
const rssBefore = process.memoryUsage().rss;
let started = performance.now();
const embedder: StaticEmbedder = await loadStaticEmbedder(config.TOOLDEX_SEMANTIC_MODEL_DIR);
line('model load (read + sha256 check + parse)', `${(performance.now() - started).toFixed(0)} ms  model=${embedder.id} dims=${embedder.dimensions}`);
line('model resident memory (RSS delta)', mb(process.memoryUsage().rss - rssBefore));

// ---- catalog texts: the same text form the quality check uses
interface Tool { slug: string; name: string; description: string; keywords?: string[]; popularity?: number; extra?: { readmeExcerpt?: string } }
const tools: Tool[] = zlib.gunzipSync(fs.readFileSync(path.join(import.meta.dirname, '..', 'data', 'catalog.jsonl.gz')))
  .toString('utf8').split('\n').filter(Boolean).map((row) => JSON.parse(row) as Tool);
const toolText = (tool: Tool) => `${tool.name}: ${tool.description ?? ''}${tool.keywords?.length ? ` Keywords: ${tool.keywords.join(', ')}.` : ''}`;

// ---- embedding cost
const queries = [...loadLabelledQueries(TUNING_FILE), ...loadLabelledQueries(HELDOUT_FILE)];
const queryTimes: number[] = [];
for (let round = 0; round < 20; round += 1) {
  for (const { query } of queries) {
    const t = performance.now();
    embedder.embedText(`${query} ${round}`);
    queryTimes.push(performance.now() - t);
  }
}
line('embed one query, p50 (distinct, uncached)', `${(p50(queryTimes) * 1000).toFixed(1)} µs  (n=${queryTimes.length})`);
const passages = tools.map((tool) => tool.extra?.readmeExcerpt ?? '').filter((text) => text.length > 400).slice(0, 3000);
const passageTimes = passages.map((text) => { const t = performance.now(); embedder.embedText(text); return performance.now() - t; });
line('embed one passage (README excerpt), p50', `${(p50(passageTimes) * 1000).toFixed(1)} µs  (n=${passages.length}, ≤256 tokens)`);
started = performance.now();
const toolVectors = tools.map((tool) => embedder.embedText(toolText(tool)));
const toolsMs = performance.now() - started;
line('embed the whole catalog', `${toolsMs.toFixed(0)} ms for ${tools.length} tools (${((toolsMs / tools.length) * 1000).toFixed(1)} µs each)`);

// ---- top-k over 60k vectors: the catalog plus README-excerpt sentences as further real vectors
const index = new VectorIndex(embedder.dimensions, TOTAL_VECTORS);
tools.forEach((tool, i) => index.add(tool.slug, toolVectors[i]!));
const fillers = tools.flatMap((tool) => (tool.extra?.readmeExcerpt ?? '').split(/(?<=[.!?])\s+/).filter((s) => s.length > 40));
for (let i = 0; index.size < TOTAL_VECTORS && i < fillers.length; i += 1) index.add(`filler${i}`, embedder.embedText(fillers[i]!));
const heapBefore = process.memoryUsage().heapUsed;
line('vectors in the index', `${index.size} (${embedder.dimensions} int8 + scale + ${embedder.dimensions / 8} sign bytes each ≈ ${mb(index.size * (embedder.dimensions * 1.125 + 4))})`);
const queryVectors = queries.map(({ query }) => embedder.embedText(query));
const isTool = (id: string) => !id.startsWith('filler');
const exactScan = (q: Float32Array, k: number) => index.search(q, k, isTool, { exact: true }).map((hit) => [hit.id, hit.score] as const);
for (let warm = 0; warm < 3; warm += 1) for (const q of queryVectors) index.search(q, 10);
const searchTimes = queryVectors.map((q) => { const t = performance.now(); index.search(q, 10); return performance.now() - t; });
line(`top-10 over ${index.size} vectors, p50 (binary + rescoring)`, `${p50(searchTimes).toFixed(2)} ms`);
// CPU time is steadier than wall time on a shared, loaded machine.
const cpuStart = process.cpuUsage();
for (let round = 0; round < 5; round += 1) for (const q of queryVectors) index.search(q, 10);
const cpu = process.cpuUsage(cpuStart);
line('top-10 over 60k vectors, mean CPU time', `${((cpu.user + cpu.system) / 1000 / (5 * queryVectors.length)).toFixed(2)} ms`);
const npmOnly = (id: string) => id.startsWith('npm-');
for (let warm = 0; warm < 3; warm += 1) for (const q of queryVectors) index.search(q, 10, npmOnly);
const filteredTimes = queryVectors.map((q) => { const t = performance.now(); index.search(q, 10, npmOnly); return performance.now() - t; });
line(`top-10 with a filter (ecosystem=npm), p50`, `${p50(filteredTimes).toFixed(2)} ms`);
const exactTimes = queryVectors.map((q) => { const t = performance.now(); index.search(q, 10, undefined, { exact: true }); return performance.now() - t; });
line(`baseline: exact scan of all ${index.size} vectors, p50`, `${p50(exactTimes).toFixed(2)} ms`);
let recall = 0;
for (const q of queryVectors) {
  const exact = new Set(exactScan(q, 10).map(([id]) => id));
  recall += index.search(q, 10, isTool).filter((hit) => exact.has(hit.id)).length / 10;
}
line('recall@10 of binary + rescoring vs exact', (recall / queryVectors.length).toFixed(3));
line('heap after building the index', mb(heapBefore));

// ---- blends: two plain ways to combine full text and vectors (neither tuned on the held-out sets)
/** 0.5 × BM25/max + cosine over the union of both candidate lists (weight chosen on the catalog tuning set). */
function weightedBlend(lexical: Array<{ id: string; score: number }>, dense: string[], cosineOf: (id: string) => number): string[] {
  const top = lexical[0]?.score ?? 1;
  const scores = new Map<string, number>();
  for (const hit of lexical) scores.set(hit.id, 0.5 * (hit.score / top));
  for (const id of dense) if (!scores.has(id)) scores.set(id, 0);
  for (const id of scores.keys()) scores.set(id, scores.get(id)! + cosineOf(id));
  return [...scores].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}
/** Reciprocal rank fusion (k = 60): parameter-free, uses only the two rankings. */
function rrf(lexical: string[], dense: string[]): string[] {
  const scores = new Map<string, number>();
  for (const list of [lexical, dense]) list.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (60 + rank + 1)));
  return [...scores].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

// ---- catalog quality: dense, BM25, blends on the labelled queries (tuning and held-out reported apart)
const bm25 = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
bm25.addAll(tools.map((tool) => ({ id: tool.slug, text: toolText(tool) })));
const toolIndex = new VectorIndex(embedder.dimensions, tools.length);
tools.forEach((tool, i) => toolIndex.add(tool.slug, toolVectors[i]!));
type Ranker = (query: string) => string[];
const lexicalHits = (query: string) => bm25.search(query, { combineWith: 'OR' }).slice(0, 200).map((hit) => ({ id: String(hit.id), score: hit.score }));
const bm25Ranker: Ranker = (query) => lexicalHits(query).slice(0, 10).map((hit) => hit.id);
const denseRanker: Ranker = (query) => toolIndex.search(embedder.embedText(query), 10).map((hit) => hit.id);
const weightedRanker: Ranker = (query) => {
  const vector = embedder.embedText(query);
  return weightedBlend(lexicalHits(query), toolIndex.search(vector, 200).map((hit) => hit.id), (id) => toolIndex.score(vector, id) ?? 0);
};
const rrfRanker: Ranker = (query) => rrf(lexicalHits(query).map((hit) => hit.id), toolIndex.search(embedder.embedText(query), 200).map((hit) => hit.id));
const quality = (set: LabelledQuery[], rank: Ranker) => {
  let hit1 = 0, hit5 = 0, mrr = 0;
  for (const { query, acceptable } of set) {
    const position = rank(query).slice(0, 10).findIndex((slug) => acceptable.has(slug));
    if (position === 0) hit1 += 1;
    if (position >= 0 && position < 5) hit5 += 1;
    if (position >= 0) mrr += 1 / (position + 1);
  }
  return `hit@1=${(hit1 / set.length).toFixed(3)} hit@5=${(hit5 / set.length).toFixed(3)} mrr@10=${(mrr / set.length).toFixed(3)}`;
};
for (const [name, file] of [['tuning', TUNING_FILE], ['held-out', HELDOUT_FILE]] as const) {
  const set = loadLabelledQueries(file);
  const rankers = [['bm25 (baseline)', bm25Ranker], ['static dense', denseRanker], ['bm25 + static, weighted', weightedRanker],
    ['bm25 + static, rrf', rrfRanker]] as const;
  for (const [label, rank] of rankers) line(`catalog ${name} n=${set.length} ${label}`, quality(set, rank));
}

// ---- docs quality: passages of bench/docs-questions.tsv's packages (fetched from the registries), hit@3
if (process.env.BENCH_SKIP_DOCS) process.exit(0);
interface Question { tool: string; question: string; expect: string }
const questions: Question[] = fs.readFileSync(path.join(import.meta.dirname, 'docs-questions.tsv'), 'utf8').split('\n')
  .filter((row) => row.trim() && !row.startsWith('#'))
  .map((row) => { const [tool = '', question = '', expect = ''] = row.split('\t'); return { tool, question, expect }; });
const home = await freshHome();
const app = await createApp(loadConfig({ TOOLDEX_HOME: home, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', TOOLDEX_SEMANTIC: 'off' }, {}), createLogger('warn'));
const hits = { bm25: 0, dense: 0, weighted: 0, rrf: 0 };
let asked = 0;
const askedQuestions: Array<Question & { key: string }> = [];
const docPassageTimes: number[] = [];
const byPackage = new Map<string, { mini: MiniSearch; vectors: VectorIndex; texts: Map<string, string> }>();
for (const q of questions) {
  let result;
  try {
    result = await app.docs.search(q.tool, q.question, { limit: 3 });
  } catch (error) {
    console.error(`  skipped ${q.tool}: ${error instanceof Error ? error.message : String(error)}`);
    continue;
  }
  const key = `${result.slug}@${result.version}`;
  let entry = byPackage.get(key);
  if (!entry) {
    const rows = await allPassages(app.store, result.slug, result.version);
    const mini = new MiniSearch<{ id: string; title: string; content: string }>({ fields: ['title', 'content'] });
    mini.addAll(rows.map((row) => ({ id: String(row.id), title: row.title ?? '', content: row.content })));
    const vectors = new VectorIndex(embedder.dimensions, rows.length);
    const texts = new Map<string, string>();
    for (const row of rows) {
      const text = `${row.title ?? ''}\n${row.content}`;
      const t = performance.now();
      vectors.add(String(row.id), embedder.embedText(text));
      docPassageTimes.push(performance.now() - t);
      texts.set(String(row.id), text.toLowerCase());
    }
    entry = { mini, vectors, texts };
    byPackage.set(key, entry);
  }
  asked += 1;
  askedQuestions.push({ ...q, key });
  const found = (ids: string[]) => ids.slice(0, 3).some((id) => entry.texts.get(id)?.includes(q.expect.toLowerCase()));
  const lexical = entry.mini.search(q.question, { combineWith: 'OR' }).map((hit) => ({ id: String(hit.id), score: hit.score }));
  const vector = embedder.embedText(q.question);
  const dense = entry.vectors.search(vector, entry.vectors.size).map((hit) => hit.id);
  const rankings = {
    bm25: lexical.map((hit) => hit.id),
    dense,
    weighted: weightedBlend(lexical, dense, (id) => entry.vectors.score(vector, id) ?? 0),
    rrf: rrf(lexical.map((hit) => hit.id), dense),
  };
  for (const key of Object.keys(hits) as Array<keyof typeof hits>) {
    const ok = found(rankings[key]);
    hits[key] += Number(ok);
    if (process.env.BENCH_VERBOSE && !ok) console.error(`  ${key} miss ${q.tool} "${q.question}" want "${q.expect}"`);
  }
}
await app.close();
fs.rmSync(home, { recursive: true, force: true });
// For comparing other models on exactly these passages (scripts/semantic/compare_docs.py reads this file).
if (process.env.BENCH_EXPORT) {
  const exported = [...byPackage].map(([key, entry]) => ({ key, passages: [...entry.texts] }));
  fs.writeFileSync(process.env.BENCH_EXPORT, JSON.stringify({ questions: askedQuestions, packages: exported }));
}
line('embed one docs passage, p50', `${(p50(docPassageTimes) * 1000).toFixed(1)} µs  (n=${docPassageTimes.length})`);
line(`docs n=${asked} bm25 (baseline) hit@3`, (hits.bm25 / asked).toFixed(3));
line(`docs n=${asked} static dense hit@3`, (hits.dense / asked).toFixed(3));
line(`docs n=${asked} bm25 + static, weighted hit@3`, (hits.weighted / asked).toFixed(3));
line(`docs n=${asked} bm25 + static, rrf hit@3`, (hits.rrf / asked).toFixed(3));
