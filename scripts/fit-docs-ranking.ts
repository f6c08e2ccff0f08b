// Fits the docs ranking's word-side expression (src/docs/rank.ts WORD_FEATURES, each times the WEIGHTS entry of the same
// name) and the fusion weight (WEIGHTS.rrf) on the docs tuning questions, and reports them against the hand-set WEIGHTS.
//   FIT_HOMES='{"tuning":"/tmp/a","fresh":"/tmp/b","fresh-r4":"/tmp/c"}' FIT_ECOSYSTEMS=npm,go \
//     node --import tsx scripts/fit-docs-ranking.ts          # report only
//   FIT_WRITE=1 …                                             # also writes src/docs/rank-weights.ts
// Tuning (fitted): bench/docs-tuning.tsv + bench/docs-fresh.tsv + bench/docs-fresh-r4.tsv (the spent fresh sets are tuning
// data now). bench/docs-heldout.tsv is only ranked and reported (with the tuning file's store), never fitted.
// FIT_HOMES names an indexed store per set (a bench/docs.ts BENCH_HOME; a set without one gets a fresh store and downloads).
// How: each question is asked as the service asks it (app.docs.search, limit 3) with the ranker's probe on
// (RANK_PROBE in src/docs/rank.ts), which hands over the candidate pool's named feature values and a `rerank` that orders
// the same pool under other weights with the ranker's own code (fusion, guide links and near-duplicate collapse included).
// Pairwise logistic regression (answering passage vs. non-answering one of the same pool, each question weighing the
// same, L2 penalty), Newton's method: deterministic. 5-fold CV with folds by PACKAGE (all questions of one package,
// every version, in one fold), so a fold's packages are unseen by its fit. The fusion weight is picked on the training
// folds' hit@3 from a grid. Measured: hit@3 of the top 3 `rerank` returns, as bench/docs.ts judges it (bench/docs-questions.ts).
import fs from 'node:fs';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { RANK_PROBE, WEIGHTS, WORD_FEATURES, type DocsWeights, type FeatureRow, type Ranked, type WordFeature } from '../src/docs/rank.ts';
import { createLogger } from '../src/log.ts';
import { freshHome } from '../test/helpers/stores.ts';
import { benchGemFixture } from '../bench/docs-artifacts.ts';
import { answers, firstHit, loadQuestions, type Question } from '../bench/docs-questions.ts';
import { solve } from '../bench/linear-solve.ts';

const K = 5;
const LAMBDAS = (process.env.FIT_LAMBDAS ?? '0.001,0.01,0.1').split(',').map(Number);
// FIT_RRF_GRID=1 keeps the fusion weight as it is (fits the word side alone).
const RRF_GRID = (process.env.FIT_RRF_GRID ?? '0.5,0.75,1,1.5,2,3').split(',').map(Number);
/** Negatives per question: the non-answering passages the hand-set word score puts highest (the near relatives). */
const NEGATIVES = 20;
const OUT = path.join(import.meta.dirname, '../src/docs/rank-weights.ts');
const TUNING = [['docs-tuning.tsv', 'tuning'], ['docs-fresh.tsv', 'fresh'], ['docs-fresh-r4.tsv', 'fresh-r4']] as const;
const homes = JSON.parse(process.env.FIT_HOMES ?? '{}') as Record<string, string>;
const ecosystems = process.env.FIT_ECOSYSTEMS?.split(',').map((e) => e.trim());
const limit = process.env.FIT_LIMIT ? Number(process.env.FIT_LIMIT) : Infinity;

interface Asked { q: Question; rows: FeatureRow[]; answering: Set<number>; rerank: (weights: DocsWeights) => Ranked[] }

const keep = (q: Question) => !ecosystems || ecosystems.includes(q.ecosystem);
const tuning = TUNING.flatMap(([file, set]) => loadQuestions(file, set).filter(keep).slice(0, limit));
const heldout = loadQuestions('docs-heldout.tsv', 'heldout').filter(keep).slice(0, limit);

/** Asks each question of one store; the last probed pool of a search is the one whose top 3 it answered with. */
async function ask(questions: Question[], home: string | undefined): Promise<Asked[]> {
  const gems = questions.some((q) => q.ecosystem === 'rubygems') ? await benchGemFixture() : undefined;
  const dir = home ?? await freshHome();
  const app = await createApp(loadConfig({
    TOOLDEX_HOME: dir, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', TOOLDEX_DOCS_DEADLINE_MS: 600_000,
    ...(gems ? { TOOLDEX_RUBYGEMS_URL: gems.url } : {}),
  }, {}), createLogger('warn'));
  const asked: Asked[] = [];
  for (const q of questions) {
    let last: Parameters<NonNullable<typeof RANK_PROBE.onPool>>[0] | undefined;
    RANK_PROBE.onPool = (pool) => { last = pool; };
    try {
      await app.docs.search(q.tool, q.question, { limit: 3 });
    } catch (error) {
      console.error(`  could not ask ${q.tool}: ${(error as Error).message}`);
      continue;
    } finally {
      RANK_PROBE.onPool = undefined;
    }
    if (!last) { asked.push({ q, rows: [], answering: new Set(), rerank: () => [] }); continue; }
    const pool = last;
    const answering = new Set(pool.rows.filter((r) => answers(pool.passage(r.doc), q.expect)).map((r) => r.doc));
    asked.push({ q, rows: pool.rows, answering, rerank: pool.rerank });
  }
  await app.close();
  await gems?.close();
  if (!home) fs.rmSync(dir, { recursive: true, force: true });
  return asked;
}

const hit3 = (a: Asked, weights: DocsWeights) => { const at = firstHit(a.rerank(weights).slice(0, 3), a.q.expect); return at >= 1 && at <= 3; };
const hits = (list: Asked[], weights: DocsWeights) => list.filter((a) => hit3(a, weights)).length;
const wordScore = (row: FeatureRow, weights: Record<WordFeature, number>) => WORD_FEATURES.reduce((sum, f) => sum + weights[f] * row.features[f], 0);

/** Pairwise logistic regression by Newton's method; each question's pairs weigh 1 in all. */
function fit(list: Asked[], lambda: number): Record<WordFeature, number> {
  const d = WORD_FEATURES.length;
  const pairs: Array<{ x: number[]; weight: number }> = [];
  for (const a of list) {
    const positives = a.rows.filter((r) => a.answering.has(r.doc));
    const negatives = a.rows.filter((r) => !a.answering.has(r.doc)).sort((l, r) => wordScore(r, WEIGHTS) - wordScore(l, WEIGHTS) || l.doc - r.doc).slice(0, NEGATIVES);
    if (!positives.length || !negatives.length) continue;
    const weight = 1 / (positives.length * negatives.length);
    for (const p of positives) for (const n of negatives) pairs.push({ x: WORD_FEATURES.map((f) => p.features[f] - n.features[f]), weight });
  }
  const w = new Array<number>(d).fill(0);
  for (let step = 0; step < 50; step++) {
    const gradient = w.map((v) => 2 * lambda * v);
    const hessian = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 2 * lambda + 1e-9 : 0)));
    for (const { x, weight } of pairs) {
      const margin = x.reduce((sum, v, i) => sum + v * w[i]!, 0);
      const p = 1 / (1 + Math.exp(-margin));
      for (let i = 0; i < d; i++) {
        gradient[i]! -= weight * (1 - p) * x[i]!;
        for (let j = 0; j < d; j++) hessian[i]![j]! += weight * p * (1 - p) * x[i]! * x[j]!;
      }
    }
    const delta = solve(hessian, gradient);
    for (let i = 0; i < d; i++) w[i]! -= delta[i]!;
    if (Math.max(...delta.map(Math.abs)) < 1e-8) break;
  }
  // Only the word order matters to the fusion; scaled to the hand-set weights' total so a question ranked without the
  // encoder (word score plus similarity) keeps the same balance.
  const handTotal = WORD_FEATURES.reduce((sum, f) => sum + Math.abs(WEIGHTS[f]), 0);
  const total = w.reduce((sum, v) => sum + Math.abs(v), 0) || 1;
  return Object.fromEntries(WORD_FEATURES.map((f, i) => [f, Number((w[i]! * handTotal / total).toFixed(4))])) as Record<WordFeature, number>;
}

/** Word weights fitted on `train`, then the fusion weight that ranks `train` best (ties: nearest the hand-set one). */
// FIT_WORD=hand keeps the hand-set word weights (fits the fusion weight alone), to tell the two parts' shares apart.
function train(list: Asked[], lambda: number): DocsWeights {
  const word = process.env.FIT_WORD === 'hand' ? {} : fit(list, lambda);
  let best = { ...WEIGHTS, ...word };
  let bestHits = -1;
  for (const rrf of [...RRF_GRID].sort((l, r) => Math.abs(l - WEIGHTS.rrf) - Math.abs(r - WEIGHTS.rrf) || l - r)) {
    const weights = { ...WEIGHTS, ...word, rrf };
    const n = hits(list, weights);
    if (n > bestHits) [best, bestHits] = [weights, n];
  }
  return best;
}

/** Folds by package (name without version), balanced by question count; deterministic. */
function folds(list: Asked[]): number[] {
  const packageOf = (q: Question) => q.tool.slice(0, q.tool.lastIndexOf('@'));
  const counts = new Map<string, number>();
  for (const a of list) counts.set(packageOf(a.q), (counts.get(packageOf(a.q)) ?? 0) + 1);
  const sizes = new Array<number>(K).fill(0);
  const foldOf = new Map<string, number>();
  for (const [name, n] of [...counts].sort((l, r) => r[1] - l[1] || l[0].localeCompare(r[0]))) {
    const fold = sizes.indexOf(Math.min(...sizes));
    foldOf.set(name, fold);
    sizes[fold]! += n;
  }
  return list.map((a) => foldOf.get(packageOf(a.q))!);
}

const started = Date.now();
const bySet = new Map<string, Asked[]>();
for (const [, set] of TUNING) bySet.set(set, await ask(tuning.filter((q) => q.set === set), homes[set]));
bySet.set('heldout', await ask(heldout, homes.heldout ?? homes.tuning));
const all = TUNING.flatMap(([, set]) => bySet.get(set)!);
const held = bySet.get('heldout')!;
const inPool = all.filter((a) => a.answering.size).length;
console.log(`asked in ${((Date.now() - started) / 1000).toFixed(0)} s: ${all.length} tuning questions (${TUNING.map(([, set]) => `${bySet.get(set)!.length} ${set}`).join(' + ')}), `
  + `${held.length} held-out; ${inPool}/${all.length} tuning questions have an answering passage in the pool`);

const foldOf = folds(all);
const groups = (list: Asked[]) => [...new Set(list.map((a) => a.q.ecosystem)), 'all'].map((e) => [e, list.filter((a) => e === 'all' || a.q.ecosystem === e)] as const);
const line = (label: string, list: Asked[], hit: (a: Asked) => boolean) => groups(list)
  .map(([e, l]) => `${e} ${l.filter(hit).length}/${l.length}=${(l.filter(hit).length / (l.length || 1)).toFixed(3)}`).join('  ').replace(/^/, `${label.padEnd(34)} `);

const handHit = new Map(all.map((a) => [a, hit3(a, WEIGHTS)]));
console.log(line('hand-set, tuning hit@3', all, (a) => handHit.get(a)!));
let best = { lambda: LAMBDAS[0]!, hits: -1, cv: new Map<Asked, boolean>() };
for (const lambda of LAMBDAS) {
  const cv = new Map<Asked, boolean>();
  for (let fold = 0; fold < K; fold++) {
    const weights = train(all.filter((_, i) => foldOf[i] !== fold), lambda);
    all.forEach((a, i) => { if (foldOf[i] === fold) cv.set(a, hit3(a, weights)); });
  }
  console.log(line(`fitted, ${K}-fold CV by package, l=${lambda}`, all, (a) => cv.get(a)!));
  const n = [...cv.values()].filter(Boolean).length;
  if (n > best.hits) best = { lambda, hits: n, cv };
}
const handHits = [...handHit.values()].filter(Boolean).length;
const final = train(all, best.lambda);
const heldHand = hits(held, WEIGHTS);
const heldFitted = hits(held, final);
console.log(line('hand-set, held-out hit@3', held, (a) => hit3(a, WEIGHTS)));
console.log(line(`fitted on all tuning, held-out hit@3`, held, (a) => hit3(a, final)));
console.log(`final fit (lambda ${best.lambda}): ${[...WORD_FEATURES, 'rrf' as const].map((f) => `${f}=${final[f]}`).join(' ')}`);
const ships = best.hits > handHits && heldFitted >= heldHand;
console.log(`CV hit@3 ${best.hits}/${all.length} vs hand-set ${handHits}/${all.length}; held-out ${heldFitted}/${held.length} vs ${heldHand}/${held.length}: ${ships ? 'fitted weights qualify' : 'hand-set weights stay'}`);

if (process.env.FIT_WRITE === '1') {
  if (!ships) console.log('not written: the fitted weights do not qualify');
  else {
    fs.writeFileSync(OUT, `// Written by scripts/fit-docs-ranking.ts: do not edit by hand (rerun the script; it is deterministic for the same stores).
export const FITTED_DOCS = {
  source: 'pairwise logistic fit on ${TUNING.map(([file]) => `bench/${file}`).join(' + ')} (${all.length} questions${ecosystems ? `, ${ecosystems.join('+')}` : ''}), lambda ${best.lambda}; ${K}-fold CV by package hit@3 ${best.hits}/${all.length} (hand-set ${handHits}); held-out hit@3 ${heldFitted}/${held.length} (hand-set ${heldHand})',
  weights: { ${[...WORD_FEATURES, 'rrf' as const].map((f) => `${f}: ${final[f]}`).join(', ')} },
};
`);
    console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
  }
}
process.exit(0);
