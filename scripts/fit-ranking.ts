// Fits the ranking weights (src/catalog/rank.ts FEATURES) and writes src/catalog/rank-weights.ts, which ships.
//   node --import tsx scripts/fit-ranking.ts            # cross-validated report, then fit on all and write the file
//   FIT_WRITE=0 node --import tsx scripts/fit-ranking.ts  # report only
//   FIT_TREES=1 node --import tsx scripts/fit-ranking.ts  # ship the linear fit boosted by LambdaMART trees (bench/lambdamart.ts)
//   FIT_CV=0 FIT_LAMBDAS=0.00001 …  # one λ, no CV report: the final fit only (LOSO is the model-selection figure)
//   FIT_MODE=loso node --import tsx scripts/fit-ranking.ts    # leave-one-set-out model selection (scripts/fit-loso.ts)
//   FIT_MODE=recall node --import tsx scripts/fit-ranking.ts  # candidate recall before re-ranking (scripts/fit-loso.ts)
//   FIT_MODE=ablation node --import tsx scripts/fit-ranking.ts  # feature ablation, leave-one-set-out (scripts/fit-loso.ts)
//   FIT_MODE=forward node --import tsx scripts/fit-ranking.ts  # forward-chaining over r10–r13, the fresh run's way (scripts/fit-loso.ts)
//   FIT_FROZEN=a+b …  # these features held at 0 in the final fit and out of the trees (a group pruned by the ablation)
//   FIT_REFIT=1 …  # after FEATURES changed order or length: rank.ts then loads without the shipped trees instead of stopping
//   FIT_PSEUDO=120 …  # the final linear fit also learns from 120 pseudo-queries per ecosystem made from the catalog's own
//                     # text (bench/search-pseudo.ts; FIT_PSEUDO_WEIGHT, FIT_PSEUDO_SOURCE); the trees from people's queries only
// Training queries: TRAINING_FILES of bench/search-quality.ts — tuning, held-out and the spent fresh sets of earlier
// rounds (each run once to judge its round, then spent). Never a fresh set of the current round (those are run once,
// by the lead, with bench/search-ablation.ts). Folds are stratified by ecosystem.
// Besides CV, it reports generalisation: weights fit WITHOUT the most recently spent fresh set ranking it.
// Deterministic: the same snapshot, vectors and query files give the same weights (Newton's method, fixed folds).
import fs from 'node:fs';
import path from 'node:path';
import { FEATURES, HAND_WEIGHTS, score, type Feature } from '../src/catalog/rank.ts';
import { loadLabelledQueries, slices, SPENT_FRESH_FILE, TRAINING_FILES } from '../bench/search-quality.ts';
import {
  candidateLists, crossValidate, fitModel, fmt, loadHarness, measure, positionsWith, reportOf, trainThenRank,
} from '../bench/search-harness.ts';
import { BOOST_DEFAULTS, fitTrees } from '../bench/lambdamart.ts';
import { pseudoQueriesFromEnv } from '../bench/search-pseudo.ts';

if (process.env.FIT_MODE) {
  await import('./fit-loso.ts');
  process.exit(0);
}

const K = 5;
const LAMBDAS = (process.env.FIT_LAMBDAS ?? '0,0.000001,0.00001,0.0001').split(',').map(Number);
const OUT = path.join(import.meta.dirname, '../src/catalog/rank-weights.ts');

const started = Date.now();
const harness = await loadHarness();
const sets = TRAINING_FILES.map((file) => [path.basename(file, '.tsv'), loadLabelledQueries(file)] as const);
const queries = sets.flatMap(([, set]) => set);
const spentName = path.basename(SPENT_FRESH_FILE, '.tsv');
console.log(`index ready in ${Date.now() - started} ms; ${queries.length} training queries (${sets.map(([name, set]) => `${set.length} ${name}`).join(' + ')})`);

// Candidate lists come from stage one with the hand-set weights; the fitted weights then rank them (and run stage one).
const lists = await candidateLists(harness, queries, HAND_WEIGHTS);
const covered = lists.filter((list) => list.relevant.some(Boolean)).length;
console.log(`candidate lists: ${covered} of ${lists.length} queries have an acceptable answer among their candidates`);

const hand = await measure(harness, queries, HAND_WEIGHTS, 2);
console.log(`hand-set weights (less text)        all      ${fmt(hand)}`);

// λ is chosen by CV MRR@10; λs within TIE of the best count as tied and the largest of them is taken (more
// regularisation for the same CV), so the default sweep reproduces the shipped weights instead of the first of a tie.
const TIE = 5e-4;
const cvByLambda: { lambda: number; mrr: number; perQuery: Map<unknown, number> }[] = [];
// FIT_CV=0 with one λ: no cross-validation (nothing to choose between; LOSO, FIT_MODE=loso, is the model-selection
// figure since round 6) and no fit without the newest set: the final fit only, a fraction of the time on a loaded machine.
const skipCv = process.env.FIT_CV === '0' && LAMBDAS.length === 1;
if (skipCv) cvByLambda.push({ lambda: LAMBDAS[0]!, mrr: 0, perQuery: new Map() });
for (const lambda of skipCv ? [] : LAMBDAS) {
  const { report, perQuery } = await crossValidate(harness, queries, lists, K, lambda);
  console.log(`fitted, ${K}-fold CV, lambda=${String(lambda).padEnd(6)} all      ${fmt(report)}`);
  for (const [name, set] of sets) {
    console.log(`fitted, ${K}-fold CV, lambda=${String(lambda).padEnd(6)} ${name.padEnd(16)} ${fmt(reportOf(set, perQuery))}`);
  }
  for (const [slice, set] of slices(queries)) {
    if (slice !== 'all') console.log(`    ${slice.padEnd(8)} ${fmt(reportOf(set, perQuery))}`);
  }
  cvByLambda.push({ lambda, mrr: report.mrrAt10, perQuery });
}
const topMrr = Math.max(...cvByLambda.map((c) => c.mrr));
const chosen = cvByLambda.filter((c) => c.mrr >= topMrr - TIE).reduce((a, b) => (b.lambda > a.lambda ? b : a));
const [bestLambda, bestMrr] = [chosen.lambda, chosen.mrr];
// FIT_POSITIONS=file: each training query's first acceptable position under CV (-1: not in the top 10), to read misses by class.
if (process.env.FIT_POSITIONS) {
  fs.writeFileSync(process.env.FIT_POSITIONS, queries.map((q) => `${chosen.perQuery.get(q) ?? -1}\t${q.set}\t${q.ecosystem}\t${q.query}`).join('\n') + '\n');
}

// Generalisation: fit on the sets written before the spent fresh one, rank that one (queries written apart).
if (!skipCv) {
  const earlier = queries.map((q, i) => ({ q, list: lists[i]! })).filter(({ q }) => q.set !== spentName);
  const spent = queries.filter((q) => q.set === spentName);
  const apart = await trainThenRank(harness, earlier.map((e) => e.q), earlier.map((e) => e.list), spent, bestLambda);
  for (const [slice, set] of slices(spent)) console.log(`fit w/o ${spentName}, ranking it   ${slice.padEnd(8)} ${fmt(reportOf(set, apart))}`);
}

// Weak supervision (FIT_PSEUDO): pseudo-queries from the catalog join the final linear fit (not the CV above).
const pseudo = pseudoQueriesFromEnv(harness.tools);
const pseudoLists = pseudo.length ? await candidateLists(harness, pseudo, HAND_WEIGHTS) : [];
if (pseudo.length) console.log(`+ ${pseudo.length} pseudo-queries from the catalog in the linear fit (weight ${pseudo[0]!.weight} each)`);
// FIT_FROZEN=a+b: features held at 0 (their weight 0, and constant to the trees, so no split reads them).
const frozen = new Set((process.env.FIT_FROZEN ?? '').split('+').filter(Boolean) as Feature[]);
const unknownFrozen = [...frozen].filter((f) => !FEATURES.includes(f));
if (unknownFrozen.length) throw new Error(`FIT_FROZEN: ${unknownFrozen.join(', ')} not in FEATURES (${FEATURES.join(', ')})`);
if (frozen.size) console.log(`held at 0: ${[...frozen].join(', ')}`);
const model = await fitModel(harness, [...lists, ...pseudoLists], [...queries, ...pseudo], bestLambda, frozen);
const fitted = await measure(harness, queries, model.weights, model.margin);
console.log(`final fit on all ${queries.length} (lambda ${bestLambda}, family margin ${model.margin}): training figures ${fmt(fitted)}`);
console.log(FEATURES.map((f) => `${f}=${model.weights[f]}`).join(' '));
// FIT_TREES=1: boost the final linear fit with LambdaMART trees over the lists its own stage one gathers (shipped since
// round 6: they won 4 of 5 left-out sets in FIT_MODE=loso; docs/search.md).
const boosted = process.env.FIT_TREES === '1';
const held = FEATURES.map((f, i) => (frozen.has(f) ? i : -1)).filter((i) => i >= 0);
const treeLists = boosted ? await candidateLists(harness, queries, model.weights) : [];
const seen = held.length === 0 ? treeLists : treeLists.map((list) => ({ ...list, features: list.features.map((v) => v.map((x, i) => (held.includes(i) ? 0 : x))) }));
const trees = boosted ? fitTrees(seen, (vector) => score(vector, model.weights)) : [];
if (boosted) {
  const b = BOOST_DEFAULTS;
  const report = reportOf(queries, await positionsWith(harness, queries, { ...model, trees }));
  console.log(`+ LambdaMART ${b.rounds} trees, depth ${b.depth}, shrinkage ${b.shrinkage}: training figures ${fmt(report)}`);
}

if (process.env.FIT_WRITE !== '0') {
  const lines = [];
  for (let i = 0; i < FEATURES.length; i += 5) lines.push(`    ${FEATURES.slice(i, i + 5).map((f) => `${f}: ${model.weights[f]}`).join(', ')},`);
  const b = BOOST_DEFAULTS;
  const boost = boosted ? ` + LambdaMART (${b.rounds} trees, depth ${b.depth}, shrinkage ${b.shrinkage}, leaf L2 ${b.l2}, min leaf Hessian ${b.minLeaf}) over the linear score` : '';
  fs.writeFileSync(OUT, `// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
import type { TreeNode } from './rank-trees.ts';

export const FITTED = {
  source: 'pairwise logistic fit on ${TRAINING_FILES.map((file) => path.relative(path.join(import.meta.dirname, '..'), file)).join(' + ')} (${queries.length} queries)${pseudo.length ? ` + ${pseudo.length} pseudo-queries from the catalog (bench/search-pseudo.ts, weight ${pseudo[0]!.weight})` : ''}, lambda ${bestLambda}; ${skipCv ? 'no CV (FIT_CV=0; chosen by leave-one-set-out)' : `${K}-fold CV (stratified) MRR@10 ${bestMrr.toFixed(3)}`}${frozen.size ? `; held at 0 (pruned): ${[...frozen].join(', ')}` : ''}${boost}',
  /** FEATURES (rank.ts) in the order the fit read them: the trees name features by position in this list. */
  features: [${FEATURES.map((f) => `'${f}'`).join(', ')}],
  weights: {
${lines.join('\n')}
  },
  familyMargin: ${model.margin},
  /** Regression trees added to the linear score (rank-trees.ts): [feature index, threshold, below, at or above]. */
  trees: [
${trees.map((tree) => `    ${JSON.stringify(tree)},`).join('\n')}
  ] as TreeNode[],
};
`);
  console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
}
