// Fits the ranking weights (src/catalog/rank.ts FEATURES) and writes src/catalog/rank-weights.ts, which ships.
//   node --import tsx scripts/fit-ranking.ts            # cross-validated report, then fit on all and write the file
//   FIT_WRITE=0 node --import tsx scripts/fit-ranking.ts  # report only
// Training queries: bench/search-tuning.tsv + bench/search-heldout.tsv (both have been used to judge earlier rounds).
// Never a file named *fresh*: those are run once, by the lead, with bench/search-ablation.ts.
// Deterministic: the same snapshot, vectors and query files give the same weights (Newton's method, fixed folds).
import fs from 'node:fs';
import path from 'node:path';
import { FEATURES, HAND_WEIGHTS } from '../src/catalog/rank.ts';
import { HELDOUT_FILE, loadLabelledQueries, slices, TUNING_FILE } from '../bench/search-quality.ts';
import { candidateLists, crossValidate, fitModel, fmt, loadHarness, measure, reportOf } from '../bench/search-harness.ts';

const K = 5;
const LAMBDAS = (process.env.FIT_LAMBDAS ?? '0,0.000001,0.00001,0.0001').split(',').map(Number);
const OUT = path.join(import.meta.dirname, '../src/catalog/rank-weights.ts');

const started = Date.now();
const harness = await loadHarness();
const tuning = loadLabelledQueries(TUNING_FILE);
const heldout = loadLabelledQueries(HELDOUT_FILE);
const queries = [...tuning, ...heldout];
console.log(`index ready in ${Date.now() - started} ms; ${queries.length} training queries (${tuning.length} tuning + ${heldout.length} held-out)`);

// Candidate lists come from stage one with the hand-set weights; the fitted weights then rank them (and run stage one).
const lists = await candidateLists(harness, queries, HAND_WEIGHTS);
const covered = lists.filter((list) => list.relevant.some(Boolean)).length;
console.log(`candidate lists: ${covered} of ${lists.length} queries have an acceptable answer among their candidates`);

const hand = await measure(harness, queries, HAND_WEIGHTS, 2);
console.log(`hand-set weights (previous round)   all      ${fmt(hand)}`);
for (const [name, set] of [['tuning', tuning], ['held-out', heldout]] as const) {
  console.log(`hand-set weights (previous round)   ${name.padEnd(8)} ${fmt(await measure(harness, set, HAND_WEIGHTS, 2))}`);
}

let bestLambda = LAMBDAS[0]!;
let bestMrr = -1;
for (const lambda of LAMBDAS) {
  const { report, perQuery } = await crossValidate(harness, queries, lists, K, lambda);
  console.log(`fitted, ${K}-fold CV, lambda=${String(lambda).padEnd(6)} all      ${fmt(report)}`);
  for (const [name, set] of [['tuning', tuning], ['held-out', heldout]] as const) {
    console.log(`fitted, ${K}-fold CV, lambda=${String(lambda).padEnd(6)} ${name.padEnd(8)} ${fmt(reportOf(set, perQuery))}`);
  }
  for (const [slice, set] of slices(queries)) {
    if (slice !== 'all') console.log(`    ${slice.padEnd(8)} ${fmt(reportOf(set, perQuery))}`);
  }
  if (report.mrrAt10 > bestMrr + 1e-9) [bestLambda, bestMrr] = [lambda, report.mrrAt10];
}

const model = await fitModel(harness, lists, queries, bestLambda);
const fitted = await measure(harness, queries, model.weights, model.margin);
console.log(`final fit on all ${queries.length} (lambda ${bestLambda}, family margin ${model.margin}): training figures ${fmt(fitted)}`);
console.log(FEATURES.map((f) => `${f}=${model.weights[f]}`).join(' '));

if (process.env.FIT_WRITE !== '0') {
  const lines = [];
  for (let i = 0; i < FEATURES.length; i += 5) lines.push(`    ${FEATURES.slice(i, i + 5).map((f) => `${f}: ${model.weights[f]}`).join(', ')},`);
  fs.writeFileSync(OUT, `// Written by scripts/fit-ranking.ts: do not edit by hand (rerun the script; it is deterministic).
export const FITTED = {
  source: 'pairwise logistic fit on bench/search-tuning.tsv + bench/search-heldout.tsv (${queries.length} queries), lambda ${bestLambda}; ${K}-fold CV MRR@10 ${bestMrr.toFixed(3)}',
  weights: {
${lines.join('\n')}
  },
  familyMargin: ${model.margin},
};
`);
  console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
}
