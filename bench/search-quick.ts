// Ranking quality without a store or server: the shipped snapshot is indexed in memory with the shipped vectors, and
// the labelled sets are evaluated as `npm run bench:search` does (same index, same search). Made for narrow,
// repeatable runs on a shared machine (about 15 s instead of a first start on PGlite).
//   node --import tsx bench/search-quick.ts                       # tuning set, tooldex and lexical, misses printed
//   QUICK_SETS=tuning,held-out QUICK_VERBOSE=0 node --import tsx bench/search-quick.ts
//   QUICK_ECOSYSTEMS=npm QUICK_QUERY="http client" node --import tsx bench/search-quick.ts   # one query, top 10 with scores
// Held-out queries are never printed, neither as misses nor in QUICK_OUT (they are for reporting, not tuning; see
// queriesPrintable). QUICK_SETS=spent: the newest spent fresh set (round 20), spent19 / spent18 / spent17 / spent16 / spent15 / spent14 / spent13 / spent12 / spent11 / spent10 / spent9 / spent8 / spent7 / … / spent3: the
// round-9 / 8 / … / 3 ones. QUICK_OUT=file: every query's position and top 5, for the training sets only. Only these
// named files: the current round's fresh set is never read here.
import fs from 'node:fs';
import os from 'node:os';
import { readSnapshot, DEFAULT_SNAPSHOT } from '../src/catalog/snapshot.ts';
import { CANDIDATES, CatalogSearchIndex, POPULARITY_LOG_SHARE } from '../src/catalog/search-index.ts';
import { DEFAULT_VECTORS, loadToolVectors } from '../src/catalog/tool-vectors.ts';
import { loadStaticEmbedder } from '../src/semantic/index.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import type { Ecosystem, ToolRecord } from '../src/catalog/types.ts';
import { WEIGHTS } from '../src/catalog/rank.ts';
import { applyReadmeFile } from './search-harness.ts';
import { CUE_SOURCES } from '../src/catalog/query.ts';
import {
  evaluate, HELDOUT_FILE, loadLabelledQueries, queriesPrintable, ROUND3_FRESH_FILE, ROUND4_FRESH_FILE, ROUND5_FRESH_FILE, ROUND6_FRESH_FILE, ROUND7_FRESH_FILE, ROUND8_FRESH_FILE, ROUND9_FRESH_FILE, ROUND10_FRESH_FILE, ROUND11_FRESH_FILE, ROUND12_FRESH_FILE, ROUND13_FRESH_FILE, ROUND14_FRESH_FILE, ROUND15_FRESH_FILE, ROUND16_FRESH_FILE, ROUND17_FRESH_FILE, ROUND18_FRESH_FILE, ROUND19_FRESH_FILE, slices, SPENT_FRESH_FILE, TUNING_FILE, type Ranker,
} from './search-quality.ts';

const sets = (process.env.QUICK_SETS ?? 'tuning').split(',');
const ecosystems = process.env.QUICK_ECOSYSTEMS?.split(',') as Ecosystem[] | undefined;
const verbose = process.env.QUICK_VERBOSE !== '0';
// Experiments: QUICK_WEIGHTS='{"semantic":2}' overrides ranking weights for this run only.
Object.assign(WEIGHTS, JSON.parse(process.env.QUICK_WEIGHTS ?? '{}'));
if (process.env.QUICK_LOG_SHARE) POPULARITY_LOG_SHARE.value = Number(process.env.QUICK_LOG_SHARE);
if (process.env.QUICK_CANDIDATES) CANDIDATES.value = Number(process.env.QUICK_CANDIDATES);
// QUICK_CUES=hand: the hand lists of framework cues in place of the catalog's (derived, shipped); both: the two; none: language words only.
const cueSource = process.env.QUICK_CUES ?? 'derived';
CUE_SOURCES.hand = cueSource === 'hand' || cueSource === 'both';
CUE_SOURCES.derived = cueSource === 'derived' || cueSource === 'both';
const started = Date.now();
const tools: ToolRecord[] = [];
for await (const tool of readSnapshot(process.env.TOOLDEX_SNAPSHOT ?? DEFAULT_SNAPSHOT)) tools.push(tool);
// BENCH_README_FILE: a sample's README text re-extracted (bench/search-harness.ts applyReadmeFile).
const readmeReplaced = applyReadmeFile(tools);
if (readmeReplaced) console.log(`README text of ${readmeReplaced} tools from ${process.env.BENCH_README_FILE}`);
const index = CatalogSearchIndex.build(tools);
const config = loadConfig({ TOOLDEX_HOME: os.tmpdir() });
const embedder = await loadStaticEmbedder(config.TOOLDEX_SEMANTIC_MODEL_DIR);
index.vectors = await loadToolVectors(embedder, index, process.env.QUICK_VECTORS ?? DEFAULT_VECTORS, createLogger('warn'));
console.log(`index of ${index.size} tools with vectors in ${Date.now() - started} ms (load ${os.loadavg()[0]!.toFixed(2)})`);

const embed = async (q: string) => (await embedder.embed([index.embeddingText(q).trim().toLowerCase()], 'query'))[0];
const rankers: Array<[string, Ranker]> = [
  ['tooldex', async (q) => index.search(q, { limit: 10 }, await embed(q)).map((hit) => hit.tool.slug)],
  ['lexical', (q) => index.search(q, { limit: 10 }).map((hit) => hit.tool.slug)],
];
// QUICK_LEXICAL=0: the shipped ranking only (half the time).
if (process.env.QUICK_LEXICAL === '0') rankers.pop();

if (process.env.QUICK_SWEEP) {
  // QUICK_SWEEP='[{"popularityExponent":3},{"semantic":2}]': each weight variant on the tuning set (one index build).
  const tuning = loadLabelledQueries(TUNING_FILE);
  const base = { ...WEIGHTS };
  for (const variant of JSON.parse(process.env.QUICK_SWEEP) as Array<Record<string, number>>) {
    const { logShare, ...weights } = variant;
    Object.assign(WEIGHTS, base, weights);
    if (logShare !== undefined && logShare !== POPULARITY_LOG_SHARE.value) {
      POPULARITY_LOG_SHARE.value = logShare;
      index.upsert([]); // recomputes popularity (and the families that depend on it)
    }
    const line = [];
    for (const [slice, queries] of slices(tuning)) {
      if (!['all', 'npm', 'named', 'unnamed'].includes(slice)) continue;
      const r = await evaluate(queries, rankers[0]![1]);
      line.push(`${slice} ${r.hitAt1.toFixed(3)}/${r.hitAt5.toFixed(3)}`);
    }
    console.log(`${JSON.stringify(variant).padEnd(40)} ${line.join('  ')}`);
  }
  process.exit(0);
}

if (process.env.QUICK_DIFF) {
  // QUICK_DIFF='[{},{"semantic":2}]': tuning queries whose first acceptable answer moves between two variants.
  const [a, b] = JSON.parse(process.env.QUICK_DIFF) as Array<Record<string, number>>;
  const base = { ...WEIGHTS };
  const rankOf = async (variant: Record<string, number>, q: { query: string; acceptable: Set<string> }) => {
    const { logShare = 0, ...weights } = variant;
    Object.assign(WEIGHTS, base, weights);
    if (logShare !== POPULARITY_LOG_SHARE.value) {
      POPULARITY_LOG_SHARE.value = logShare;
      index.upsert([]);
    }
    const slugs = index.search(q.query, { limit: 10 }, await embed(q.query)).map((hit) => hit.tool.slug);
    return { at: slugs.findIndex((slug) => q.acceptable.has(slug)) + 1, top: slugs.slice(0, 3).join(' ') };
  };
  for (const q of loadLabelledQueries(TUNING_FILE)) {
    const [ra, rb] = [await rankOf(a!, q), await rankOf(b!, q)];
    if (ra.at !== rb.at) console.log(`${String(ra.at).padStart(2)} → ${String(rb.at).padStart(2)}  ${q.query}\n      ${ra.top}\n      ${rb.top}`);
  }
  process.exit(0);
}

if (process.env.QUICK_HEADS) {
  // QUICK_HEADS=npm-eslint,npm-lodash: the head of each tool's family, and the family's size.
  const heads = new Map<string, string[]>();
  for (const slug of index.slugs()) {
    const head = index.familyHead(slug)!;
    heads.set(head, [...(heads.get(head) ?? []), slug]);
  }
  for (const slug of process.env.QUICK_HEADS.split(',')) {
    const head = index.familyHead(slug)!;
    const members = heads.get(head) ?? [];
    console.log(`${slug} → head ${head}, ${members.length} members: ${members.slice(0, 12).join(' ')}`);
  }
  process.exit(0);
}

if (process.env.QUICK_QUERY) {
  for (const query of process.env.QUICK_QUERY.split('|')) {
    console.log(`\n${query}`);
    for (const { tool, score, signals: s } of index.search(query, { limit: Number(process.env.QUICK_LIMIT ?? 10) }, await embed(query), true)) {
      const parts = s ? `cov ${s.coverage.toFixed(2)} name ${s.nameCoverage.toFixed(2)} pop ${s.popularity.toFixed(3)} sem ${s.semantic.toFixed(2)} cos ${s.cosine.toFixed(2)} desc ${s.describedCoverage.toFixed(2)} kw ${s.keywordCoverage.toFixed(2)} readme ${s.readmeCoverage.toFixed(2)}${s.exact ? ' exact' : ''}${s.member ? ' member' : ''}` : '';
      console.log(`  ${score.toFixed(3).padStart(7)} ${tool.slug.padEnd(36)} ${parts}  ${tool.shortDescription.slice(0, 50)}`);
    }
  }
  process.exit(0);
}

for (const setName of sets) {
  // `spent` (round 20) / `spent19` / `spent18` / `spent17` / `spent16` / `spent15` / `spent14` / `spent13` / `spent12` / `spent11` / `spent10` / `spent9` / `spent8` / `spent7` / `spent6` / `spent5` / `spent4` / `spent3`: spent fresh sets, now training data (their figures are tuning figures).
  const files: Record<string, string> = {
    tuning: TUNING_FILE, 'held-out': HELDOUT_FILE, spent: SPENT_FRESH_FILE, spent19: ROUND19_FRESH_FILE, spent18: ROUND18_FRESH_FILE, spent17: ROUND17_FRESH_FILE, spent16: ROUND16_FRESH_FILE, spent15: ROUND15_FRESH_FILE, spent14: ROUND14_FRESH_FILE, spent13: ROUND13_FRESH_FILE, spent12: ROUND12_FRESH_FILE, spent11: ROUND11_FRESH_FILE, spent10: ROUND10_FRESH_FILE, spent9: ROUND9_FRESH_FILE, spent8: ROUND8_FRESH_FILE, spent7: ROUND7_FRESH_FILE, spent6: ROUND6_FRESH_FILE, spent5: ROUND5_FRESH_FILE, spent4: ROUND4_FRESH_FILE, spent3: ROUND3_FRESH_FILE,
  };
  if (!files[setName]) throw new Error(`QUICK_SETS: ${setName} is none of ${Object.keys(files).join(', ')}`);
  const all = loadLabelledQueries(files[setName]);
  const set = ecosystems ? all.filter((q) => ecosystems.includes(q.ecosystem)) : all;
  // Misses, QUICK_OUT rows and "not first" lines name queries and answers: training sets only (held-out: figures only).
  const printable = queriesPrintable(files[setName]);
  for (const [label, ranker] of rankers) {
    for (const [slice, queries] of slices(set)) {
      const r = await evaluate(queries, ranker);
      console.log(`quality ${setName.padEnd(8)} ${label.padEnd(7)} ${slice.padEnd(8)} n=${String(r.queries).padStart(3)} hit@1=${r.hitAt1.toFixed(3)} hit@5=${r.hitAt5.toFixed(3)} mrr@10=${r.mrrAt10.toFixed(3)}`);
      if (verbose && printable && slice === 'all') for (const miss of r.misses) console.log(`  miss: ${miss}`);
    }
  }
  if (process.env.QUICK_OUT && !printable) console.log(`QUICK_OUT: ${setName} not written (its queries are for reporting only)`);
  if (process.env.QUICK_OUT && printable) {
    // QUICK_OUT=file: one line per query (position of the first acceptable answer, 0 when not in the top 10), the top 5
    // and the acceptable answers, to read misses by class. Appends, so several sets go to one file.
    const rows = [];
    for (const q of set) {
      const slugs = index.search(q.query, { limit: 10 }, await embed(q.query)).map((hit) => hit.tool.slug);
      const at = slugs.findIndex((slug) => q.acceptable.has(slug)) + 1;
      rows.push([setName, q.ecosystem, q.named ? 'y' : 'n', at, q.query, slugs.slice(0, 5).join(' '), [...q.acceptable].join(' ')].join('\t'));
    }
    fs.appendFileSync(process.env.QUICK_OUT, rows.join('\n') + '\n');
  }
  if (verbose && printable) {
    // Queries answered but not first: what came first instead.
    for (const q of set) {
      const slugs = index.search(q.query, { limit: 10 }, await embed(q.query)).map((hit) => hit.tool.slug);
      const at = slugs.findIndex((slug) => q.acceptable.has(slug));
      if (at > 0 && at < 5) console.log(`  not first (#${at + 1}): ${q.query} → ${slugs.slice(0, at + 1).join(', ')}`);
    }
  }
}
