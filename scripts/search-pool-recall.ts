// Where the answer stands before ranking (round 16, issue 21, the "recall" class): for each query of the judged sets,
// whether an acceptable answer (or a member of its family) is in the candidate pool the shipped search ranks, and if
// not, which source would have brought it: full text at a wider stage one (its stage-one rank among every tool the
// query's words touch), meaning over the whole catalog (its rank by cosine), meaning over the head quarter the search
// scans (and whether the scan ran: it runs only when full text finds < 150 tools or the query asks for peers).
//   nice -n 10 node --import tsx scripts/search-pool-recall.ts [OUT.tsv]
//   POOL_SETS=search-fresh-r10,…  (default r10–r15); POOL_WIDE=2000 (the wide stage one)
import fs from 'node:fs';
import { CANDIDATES } from '../src/catalog/search-index.ts';
import { FEATURES, WEIGHTS } from '../src/catalog/rank.ts';
import type { VectorIndex } from '../src/semantic/vector-index.ts';
import { loadLabelledQueries, TRAINING_FILES, queriesPrintable } from '../bench/search-quality.ts';
import { loadHarness } from '../bench/search-harness.ts';

const sets = (process.env.POOL_SETS ?? 'search-fresh-r10,search-fresh-r11,search-fresh-r12,search-fresh-r13,search-fresh-r14,search-fresh-r15,search-fresh-r16,search-fresh-r17,search-fresh-r18,search-fresh-r19,search-fresh-r20').split(',');
const wide = Number(process.env.POOL_WIDE ?? 2000);
const files = TRAINING_FILES.filter((file) => sets.some((set) => file.endsWith(`/${set}.tsv`)) && queriesPrintable(file));
const queries = files.flatMap((file) => loadLabelledQueries(file));
const harness = await loadHarness();
const { index } = harness;
const head = index.headSlugs();
const all = (index.vectors!.all as unknown as VectorIndex);
const stageOne = (v: number[]) => (['coverage', 'popularitySq', 'intentMatch', 'intentOther'] as const)
  .reduce((sum, f) => sum + WEIGHTS[f] * v[FEATURES.indexOf(f)]!, 0);
const shipped = CANDIDATES.value;
const rows: string[] = [];
for (const q of queries) {
  const vector = await harness.embed(q.query);
  const answers = (list: Array<{ slug: string; head: string }>) => list.findIndex((c) => q.acceptable.has(c.slug) || q.acceptable.has(c.head));
  CANDIDATES.value = shipped;
  const pool = index.candidateFeatures(q.query, {}, vector);
  const inPool = answers(pool) >= 0;
  CANDIDATES.value = wide;
  const widePool = index.candidateFeatures(q.query, {}, vector);
  // The wide pool's stage-one order (text rank): the meaning-only additions have coverage 0 and sort last.
  const scored = widePool.map((c, k) => ({ c, s: stageOne(c.features), k })).sort((a, b) => b.s - a.s || a.k - b.k);
  const order = scored.map(({ c }) => c);
  const textRank = answers(order);
  // Outside the pool yet scoring as high as the shipped stage one's last kept tool: lost to a tie at the cut.
  const tiedAtCut = !inPool && textRank >= 0 && scored.length > shipped && scored[textRank]!.s >= scored[shipped - 1]!.s - 1e-9;
  const textCovered = textRank >= 0 && order[textRank]!.features[FEATURES.indexOf('coverage')]! > 0;
  const meaning = vector ? all.search(vector, 1000).map((hit) => ({ slug: hit.id, head: index.familyHead(hit.id) ?? hit.id })) : [];
  const meaningRank = answers(meaning);
  const answerInHead = [...q.acceptable].some((slug) => head.has(slug));
  // Meaning added tools of its own (coverage 0) only when its scan ran; the scan does not depend on the pool's width.
  const scanned = widePool.some((c) => c.features[FEATURES.indexOf('coverage')] === 0);
  rows.push([q.set, q.ecosystem, q.named ? 'y' : 'n', inPool ? 1 : 0, textCovered ? textRank + 1 : 0, meaningRank + 1, answerInHead ? 1 : 0, pool.length, scanned ? 1 : 0, tiedAtCut ? 1 : 0, q.query].join('\t'));
}
CANDIDATES.value = shipped;
if (process.argv[2]) fs.writeFileSync(process.argv[2], rows.join('\n') + '\n');
// Summary: pool recall, and for the queries whose answer is outside the pool, where each source would rank it.
const parsed = rows.map((line) => line.split('\t'));
const n = parsed.length;
const out = parsed.filter((r) => r[3] === '0');
const bucket = (rank: number) => (rank === 0 ? 'none' : rank <= 120 ? '≤120' : rank <= 300 ? '≤300' : rank <= 1000 ? '≤1000' : '>1000');
console.log(`queries ${n}; answer in the shipped pool ${n - out.length} (${((n - out.length) / n).toFixed(3)}); outside ${out.length}`);
for (const [name, col] of [['text stage-one rank (wide)', 4], ['meaning rank, whole catalog', 5]] as const) {
  const counts = new Map<string, number>();
  for (const r of out) counts.set(bucket(Number(r[col])), (counts.get(bucket(Number(r[col]))) ?? 0) + 1);
  console.log(`  outside the pool, ${name}: ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}`);
}
console.log(`  outside the pool, tied at stage one's cut with the last tool kept: ${out.filter((r) => r[9] === '1').length}`);
console.log(`  outside the pool, an answer in the scanned head quarter: ${out.filter((r) => r[6] === '1').length}; meaning scan ran: ${out.filter((r) => r[8] === '1').length}`);
for (const set of sets) {
  const inSet = parsed.filter((r) => r[0] === set);
  console.log(`  ${set}: pool recall ${(inSet.filter((r) => r[3] === '1').length / Math.max(1, inSet.length)).toFixed(3)} of ${inSet.length}`);
}
