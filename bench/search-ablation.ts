// Ablation of the directory search's ranking on any labelled query file (columns query, ecosystem, named, acceptable):
//   BENCH_ABLATE=1 BENCH_SET=bench/search-fresh.tsv npm run bench:search    # a set the weights never saw
//   BENCH_ABLATE=1 npm run bench:search                                     # the training sets, by 5-fold CV
//   (or directly: BENCH_SET=… node --import tsx bench/search-ablation.ts)
// Reports hit@1 / hit@5 / MRR@10 overall, per ecosystem and named/unnamed for: tooldex as shipped (fitted weights,
// static meaning), tooldex without meaning, the previous round's hand-set weights, plain BM25, and tooldex with each
// feature removed. "Removed" means the feature's weight is held at 0 and the other weights are REFIT without it (on
// tuning + held-out; for those sets themselves, inside each CV fold), so a feature earns its place only if the model
// cannot make up for it with the others; the family margin stays the shipped one (the fit script picks it).
// In-memory index, no store or server; measured on the loaded 2-core machine: 57 s for a 129-query set the weights
// are refit for, 292 s for the CV ablation (BENCH_ABLATE_FEATURES=text,meaning limits the feature groups).
import os from 'node:os';
import path from 'node:path';
import { FAMILY_MARGIN, FEATURES, HAND_WEIGHTS, WEIGHTS, type Feature } from '../src/catalog/rank.ts';
import { CUE_SOURCES } from '../src/catalog/query.ts';
import { DERIVED_CUES } from '../src/catalog/search-index.ts';
import { absentAnswers, baselineRanker, HELDOUT_FILE, loadLabelledQueries, slices, TUNING_FILE, type LabelledQuery, type Ranker } from './search-quality.ts';
import { candidateLists, crossValidate, fitModel, fmt, loadHarness, reportOf, type Weights } from './search-harness.ts';

const K = 5;
const LAMBDA = 1e-6;
const started = Date.now();
const load1 = () => os.loadavg()[0]!.toFixed(2);
const harness = await loadHarness();
const tuning = loadLabelledQueries(TUNING_FILE);
const heldout = loadLabelledQueries(HELDOUT_FILE);
const training = [...tuning, ...heldout];
const setFile = process.env.BENCH_SET ? path.resolve(process.env.BENCH_SET) : undefined;
const external = setFile !== undefined && ![TUNING_FILE, HELDOUT_FILE].includes(setFile);
const evalSet = setFile ? loadLabelledQueries(setFile) : training;
const label = setFile ? path.basename(setFile) : 'tuning+held-out (5-fold CV)';
console.log(`ablation on ${label}: ${evalSet.length} queries; index ready in ${Date.now() - started} ms (load ${load1()})`);
const absent = absentAnswers(evalSet, new Set(harness.tools.map((tool) => tool.slug)));
console.log(`labels: ${absent.length} acceptable answers absent from the catalog${absent.length ? `: ${absent.slice(0, 30).join(' ')}` : ''}`);

const print = (name: string, positions: Map<LabelledQuery, number>) => {
  for (const [slice, queries] of slices(evalSet)) console.log(`ablation ${name.padEnd(26)} ${slice.padEnd(8)} ${fmt(reportOf(queries, positions))}`);
};
const positionsOf = async (ranker: Ranker) => {
  const out = new Map<LabelledQuery, number>();
  for (const q of evalSet) out.set(q, (await ranker(q.query)).slice(0, 10).findIndex((slug) => q.acceptable.has(slug)));
  return out;
};
const withWeights = (weights: Weights, margin: number, semantic: boolean): Ranker => async (q) => {
  const saved = { ...WEIGHTS };
  const savedMargin = FAMILY_MARGIN.value;
  Object.assign(WEIGHTS, weights);
  FAMILY_MARGIN.value = margin;
  try {
    return harness.index.search(q, { limit: 10 }, semantic ? await harness.embed(q) : undefined).map((hit) => hit.tool.slug);
  } finally {
    Object.assign(WEIGHTS, saved);
    FAMILY_MARGIN.value = savedMargin;
  }
};

const shipped = { weights: { ...WEIGHTS }, margin: FAMILY_MARGIN.value };
print('tooldex (static meaning)', await positionsOf(withWeights(shipped.weights, shipped.margin, true)));
print('tooldex without meaning', await positionsOf(withWeights(shipped.weights, shipped.margin, false)));
print('hand-set (previous round)', await positionsOf(withWeights(HAND_WEIGHTS, 2, true)));
// Framework cues: the hand lists alone, or the cues derived from the catalog alone (shipped: both), same weights.
for (const [name, hand, derived] of [['tooldex, hand cues only', true, false], ['tooldex, derived cues only', false, true]] as const) {
  [CUE_SOURCES.hand, DERIVED_CUES.on] = [hand, derived];
  print(name, await positionsOf(withWeights(shipped.weights, shipped.margin, true)));
}
[CUE_SOURCES.hand, DERIVED_CUES.on] = [true, true];
print('bm25', await positionsOf(baselineRanker(harness.tools)));
const lists = await candidateLists(harness, training, HAND_WEIGHTS);
if (!external) {
  // On the training sets the shipped weights have seen every query: the cross-validated figure is the honest one.
  print('tooldex, 5-fold CV', (await crossValidate(harness, training, lists, K, LAMBDA, new Set(), [shipped.margin])).perQuery);
}

/** Features removed together: the ones that say one thing two ways (a linear and a squared popularity, …). */
const GROUPS: Array<[string, Feature[]]> = [
  ['text', ['text']], ['coverage', ['coverage']], ['nameCoverage', ['nameCoverage']],
  ['popularity', ['popularity', 'popularitySq']], ['intent', ['intentMatch', 'intentOther']],
  ['exactName', ['exactAlone', 'exactAlonePop', 'exactPhrase']], ['category', ['category']],
  ['meaning', ['meaning', 'meaningRaw', 'popularMeaning']], ['popularMeaning', ['popularMeaning']],
];
const covered = new Set(GROUPS.flatMap(([, features]) => features));
for (const feature of FEATURES) if (!covered.has(feature)) GROUPS.push([feature, [feature]]);
const only = process.env.BENCH_ABLATE_FEATURES?.split(',');
for (const [group, features] of GROUPS) {
  if (only && !only.includes(group)) continue;
  const frozen = new Set<Feature>(features);
  if (external) {
    const model = await fitModel(harness, lists, training, LAMBDA, frozen, [shipped.margin]);
    print(`without ${group}`, await positionsOf(withWeights(model.weights, model.margin, true)));
  } else {
    print(`without ${group} (CV)`, (await crossValidate(harness, training, lists, K, LAMBDA, frozen, [shipped.margin])).perQuery);
  }
}
console.log(`ablation done in ${Math.round((Date.now() - started) / 1000)} s (load ${load1()}; ${os.cpus().length} cores, shared)`);

