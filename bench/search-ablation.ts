// Ablation of the directory search's ranking on any labelled query file (columns query, ecosystem, named, acceptable):
//   BENCH_ABLATE=1 BENCH_SET=bench/search-fresh.tsv npm run bench:search    # a set the weights never saw
//   BENCH_ABLATE=1 npm run bench:search                                     # the training sets, by 5-fold CV
//   (or directly: BENCH_SET=… node --import tsx bench/search-ablation.ts)
// Reports hit@1 / hit@5 / MRR@10 overall, per ecosystem and named/unnamed for: tooldex as shipped (fitted weights,
// static meaning — the only meaning model the catalog ships, so the two rows agree), tooldex without meaning, the
// fourth round's hand-set weights (less their `text` weight), plain BM25, and tooldex with each feature group removed.
// "Removed" means the group's weights are held at 0 and the others REFIT without it (on TRAINING_FILES: tuning + held-out
// + the spent round-3, -4 and -5 fresh sets; with the trees too when trees ship; for those sets themselves, inside each CV fold, folds stratified by ecosystem), so a feature earns
// its place only if the model cannot make up for it with the others; the family margin stays the shipped one. On the
// training sets each row also says how a fit WITHOUT the spent fresh set ranks that set (generalisation to queries
// written apart; BENCH_ABLATE_SPENT=0 skips it).
// In-memory index, no store or server; measured on the loaded 2-core machine (load 10-18): 198 s for a 129-query set
// (every group refit on the training queries), 708 s for the CV ablation (BENCH_ABLATE_FEATURES=meaning,intent
// limits the feature groups; BENCH_ABLATE_EXTRA adds groups removed together). The CV rows refit the linear part only;
// leave-one-set-out rows, trees included, come from FIT_MODE=ablation of scripts/fit-ranking.ts.
import os from 'node:os';
import path from 'node:path';
import { FAMILY_MARGIN, FEATURES, HAND_WEIGHTS, TREES, WEIGHTS, type Feature } from '../src/catalog/rank.ts';
import type { TreeNode } from '../src/catalog/rank-trees.ts';
import { CUE_SOURCES } from '../src/catalog/query.ts';
import {
  absentAnswers, baselineRanker, loadLabelledQueries, slices, SPENT_FRESH_FILE, TRAINING_FILES, type LabelledQuery, type Ranker,
} from './search-quality.ts';
import { candidateLists, crossValidate, fitSpec, fmt, loadHarness, reportOf, trainThenRank, type Weights } from './search-harness.ts';
import { BOOST_DEFAULTS } from './lambdamart.ts';

const K = 5;
// The shipped fit's λ (rank-weights.ts), chosen by leave-one-set-out in round 6.
const LAMBDA = 1e-5;
const started = Date.now();
const load1 = () => os.loadavg()[0]!.toFixed(2);
const harness = await loadHarness();
const training = TRAINING_FILES.flatMap((file) => loadLabelledQueries(file));
const setFile = process.env.BENCH_SET ? path.resolve(process.env.BENCH_SET) : undefined;
const external = setFile !== undefined && !TRAINING_FILES.includes(setFile);
const evalSet = setFile && external ? loadLabelledQueries(setFile) : training;
const label = external ? path.basename(setFile!) : `${TRAINING_FILES.map((file) => path.basename(file, '.tsv')).join(' + ')} (${K}-fold CV, stratified by ecosystem)`;
console.log(`ablation on ${label}: ${evalSet.length} queries; index ready in ${Date.now() - started} ms (load ${load1()})`);
const absent = absentAnswers(evalSet, new Set(harness.tools.map((tool) => tool.slug)));
console.log(`labels: ${absent.length} acceptable answers absent from the catalog${absent.length ? `: ${absent.slice(0, 30).join(' ')}` : ''}`);

const print = (name: string, positions: Map<LabelledQuery, number>, set = evalSet) => {
  for (const [slice, queries] of slices(set)) console.log(`ablation ${name.padEnd(34)} ${slice.padEnd(8)} ${fmt(reportOf(queries, positions))}`);
};
const positionsOf = async (ranker: Ranker, set = evalSet) => {
  const out = new Map<LabelledQuery, number>();
  for (const q of set) out.set(q, (await ranker(q.query)).slice(0, 10).findIndex((slug) => q.acceptable.has(slug)));
  return out;
};
const withWeights = (weights: Weights, margin: number, semantic: boolean, trees: readonly TreeNode[] = []): Ranker => async (q) => {
  const saved = { ...WEIGHTS };
  const savedMargin = FAMILY_MARGIN.value;
  const savedTrees = TREES.value;
  Object.assign(WEIGHTS, weights);
  FAMILY_MARGIN.value = margin;
  TREES.value = trees;
  try {
    return harness.index.search(q, { limit: 10 }, semantic ? await harness.embed(q) : undefined).map((hit) => hit.tool.slug);
  } finally {
    Object.assign(WEIGHTS, saved);
    FAMILY_MARGIN.value = savedMargin;
    TREES.value = savedTrees;
  }
};

const shipped = { weights: { ...WEIGHTS }, margin: FAMILY_MARGIN.value, trees: TREES.value };
// Where the shipped model is boosted by trees, each refit row below is boosted too (the same settings).
const boost = shipped.trees.length > 0 ? BOOST_DEFAULTS : undefined;
const asShipped = await positionsOf(withWeights(shipped.weights, shipped.margin, true, shipped.trees));
print('tooldex as shipped', asShipped);
// The catalog's meaning model is the static one (docs/search.md "Which meaning model ships"): the same ranking.
print('tooldex, static meaning only', asShipped);
print('tooldex without meaning', await positionsOf(withWeights(shipped.weights, shipped.margin, false, shipped.trees)));
if (boost) print('tooldex, linear part (no trees)', await positionsOf(withWeights(shipped.weights, shipped.margin, true)));
print('hand-set weights less text', await positionsOf(withWeights(HAND_WEIGHTS, 2, true)));
// Framework cues: without them (language words only; the catalog's since round 8, the hand lists before), same weights.
const cueSources = { ...CUE_SOURCES };
Object.assign(CUE_SOURCES, { hand: false, derived: false });
print('tooldex, no framework cues', await positionsOf(withWeights(shipped.weights, shipped.margin, true, shipped.trees)));
Object.assign(CUE_SOURCES, cueSources);
print('bm25', await positionsOf(baselineRanker(harness.tools)));
const lists = await candidateLists(harness, training, HAND_WEIGHTS);
// Generalisation to the newest spent fresh set (round 4): fit without it (the other training sets), rank it with that fit.
const spentName = path.basename(SPENT_FRESH_FILE, '.tsv');
const spent = training.filter((q) => q.set === spentName);
const earlier = training.map((q, i) => ({ q, list: lists[i]! })).filter(({ q }) => q.set !== spentName);
const generalisation = async (name: string, frozen: ReadonlySet<Feature>) => {
  if (external || process.env.BENCH_ABLATE_SPENT === '0') return;
  const positions = await trainThenRank(harness, earlier.map((e) => e.q), earlier.map((e) => e.list), spent, LAMBDA, frozen, [shipped.margin]);
  print(`${name}, fit w/o ${spentName}`, positions, spent);
};
if (!external) {
  // On the training sets the shipped weights have seen every query: the cross-validated figure is the honest one.
  print(`tooldex, ${K}-fold CV`, (await crossValidate(harness, training, lists, K, LAMBDA, new Set(), [shipped.margin])).perQuery);
  await generalisation('tooldex', new Set());
}

/** Features removed together: the ones that say one thing two ways (a linear and a squared popularity, …). */
const GROUPS: Array<[string, Feature[]]> = [
  ['coverage', ['coverage']],
  ['popularity', ['popularitySq']], ['intent', ['intentMatch', 'intentOther']],
  ['exactName', ['exactAlone', 'exactAlonePop', 'exactPhrase', 'exactAloneLead']],
  ['meaning', ['meaning', 'meaningRaw']],
];
// BENCH_ABLATE_EXTRA='a=popularitySq+meaning;b=exactPhrase+meaning': more groups removed together, for comparisons.
for (const spec of process.env.BENCH_ABLATE_EXTRA?.split(';').filter(Boolean) ?? []) {
  const [name = spec, list = ''] = spec.split('=');
  GROUPS.push([name, list.split('+').filter((f): f is Feature => (FEATURES as readonly string[]).includes(f))]);
}
const covered = new Set(GROUPS.flatMap(([, features]) => features));
for (const feature of FEATURES) if (!covered.has(feature)) GROUPS.push([feature, [feature]]);
const only = process.env.BENCH_ABLATE_FEATURES?.split(',');
for (const [group, features] of GROUPS) {
  if (only && !only.includes(group)) continue;
  const frozen = new Set<Feature>(features);
  if (external) {
    const model = await fitSpec(harness, training, lists, { name: group, lambda: LAMBDA, frozen, margins: [shipped.margin], boost });
    print(`without ${group}`, await positionsOf(withWeights(model.weights, model.margin, true, model.trees)));
  } else {
    print(`without ${group} (CV)`, (await crossValidate(harness, training, lists, K, LAMBDA, frozen, [shipped.margin])).perQuery);
    await generalisation(`without ${group}`, frozen);
  }
}
console.log(`ablation done in ${Math.round((Date.now() - started) / 1000)} s (load ${load1()}; ${os.cpus().length} cores, shared)`);

