// Model selection and diagnosis of the ranking fit by leave-one-set-out (run through scripts/fit-ranking.ts):
//   FIT_MODE=loso      each labelled set (tuning, held-out, and each round's spent fresh set: one writer each) is ranked by
//                      a model fit on the other sets only, for the linear model at each λ of FIT_LAMBDAS and the linear
//                      model boosted by LambdaMART trees (FIT_TREES_TRY=0 skips it; FIT_TREE_* set the trees).
//   FIT_MODE=recall    candidate recall: for each query, whether an acceptable answer is among stage one's candidates
//                      when stage one keeps 10, 30, 100, … (CANDIDATES, plus exact names and meaning's neighbours), and
//                      where the first one stands in stage one's order, before re-ranking.
//                      FIT_CANDIDATES=n runs a mode with stage one keeping n candidates instead of the shipped number.
//   FIT_MODE=ablation  each feature group held at 0 and the rest refit, leave-one-set-out (FIT_ABLATE limits the groups;
//                      `cues` turns the catalog's framework cues off instead; with FIT_ABLATE_TREES=1 the base row's
//                      linear parts give the trees' ablation too).
//   FIT_MODE=forward   forward-chaining, the way a fresh run judges (round 14): each of the newest sets (FIT_FORWARD_SETS,
//                      default r10–r14) is ranked by a model fit only on the sets written before it (TRAINING_FILES' round
//                      order; tuning, held-out and r3 come before r4); per set and the mean over sets. One linear fit per
//                      fold and λ (FIT_LAMBDAS) serves every tree setting of FIT_TREE_GRID (rounds x depth [x shrinkage],
//                      e.g. 40x3,20x2; `none` for the linear model alone); FIT_FROZEN_VARIANTS=a+b;c (`;`-separated,
//                      `-` for none) runs the whole grid once per set of features held at 0 (FIT_FROZEN adds to each).
//                      FIT_POOL_VARIANTS=60x150;60xInf (`;`-separated, `-` for the shipped pool) runs all of that once per
//                      meaning pool (search-index.ts SEMANTIC_POOL: candidates x scanBelow), lists gathered again for each
//                      (round 16: the recall class).
// FIT_PSEUDO=n (any mode but recall): n pseudo-queries per ecosystem made from the catalog's own text (bench/search-pseudo.ts,
//                    weak supervision, no evaluation set read) join every fold's linear fit, never ranked; FIT_PSEUDO_WEIGHT
//                    (default 0.5 each), FIT_PSEUDO_SOURCE (description | readme).
// The family margin is held at FIT_MARGINS (default 0, the shipped one) to keep a run near ten minutes on a loaded machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FEATURES, HAND_WEIGHTS, score, WEIGHTS, type Feature } from '../src/catalog/rank.ts';
import { CANDIDATES, SEMANTIC_POOL } from '../src/catalog/search-index.ts';
import { CUE_SOURCES } from '../src/catalog/query.ts';
import { loadLabelledQueries, queriesPrintable, slices, TRAINING_FILES, type LabelledQuery } from '../bench/search-quality.ts';
import {
  candidateLists, fitModel, fmt, leaveOneSetOut, loadHarness, positionsWith, reportOf, type ModelSpec,
} from '../bench/search-harness.ts';
import { BOOST_DEFAULTS, fitTrees, type BoostSettings } from '../bench/lambdamart.ts';
import { pseudoQueriesFromEnv } from '../bench/search-pseudo.ts';
import { meanOverSets, poolVariants, rowOutFile, writtenBefore } from '../bench/search-forward.ts';

const started = Date.now();
const load = () => os.loadavg()[0]!.toFixed(1);
const harness = await loadHarness();
// FIT_SETS=search-fresh-r7,search-fresh-r8,…: leave-one-set-out among these sets alone (fit and rank on them only).
const onlySets = process.env.FIT_SETS?.split(',');
const queries = TRAINING_FILES.flatMap((file) => loadLabelledQueries(file)).filter((q) => !onlySets || onlySets.includes(q.set));
const setNames = [...new Set(queries.map((q) => q.set))];
const margins = (process.env.FIT_MARGINS ?? '0').split(',').map(Number);
const mode = process.env.FIT_MODE;
console.log(`${mode}: ${queries.length} queries in ${setNames.length} sets (${setNames.join(', ')}); load ${load()}`);

/** One line per left-out set and pooled; per ecosystem for the sets named in FIT_ECOSYSTEM_SETS (default: the newest). */
const bySet = new Map<string, Map<string, number[]>>();
function report(name: string, positions: Map<LabelledQuery, number>): void {
  const detail = (process.env.FIT_ECOSYSTEM_SETS ?? setNames.at(-1)!).split(',');
  const row = new Map<string, number[]>();
  for (const set of setNames) {
    const inSet = queries.filter((q) => q.set === set);
    const r = reportOf(inSet, positions);
    row.set(set, [r.hitAt1, r.hitAt5, r.mrrAt10]);
    console.log(`${name.padEnd(30)} left out ${set.padEnd(16)} ${fmt(r)}`);
    if (detail.includes(set)) {
      for (const [slice, part] of slices(inSet)) if (slice !== 'all') console.log(`${''.padEnd(30)}    ${slice.padEnd(25)} ${fmt(reportOf(part, positions))}`);
    }
  }
  const pooled = reportOf(queries, positions);
  row.set('pooled', [pooled.hitAt1, pooled.hitAt5, pooled.mrrAt10]);
  console.log(`${name.padEnd(30)} pooled               ${fmt(pooled)}   (${Math.round((Date.now() - started) / 1000)} s, load ${load()})`);
  // Pooled by class: the queries that name an ecosystem and those that do not (each set's share differs).
  for (const [slice, part] of slices(queries)) if (slice === 'named' || slice === 'unnamed') console.log(`${''.padEnd(30)}    pooled ${slice.padEnd(18)} ${fmt(reportOf(part, positions))}`);
  // The writer-to-writer spread: max − min over the left-out sets.
  const spread = (i: number) => Math.max(...setNames.map((set) => row.get(set)![i]!)) - Math.min(...setNames.map((set) => row.get(set)![i]!));
  console.log(`${''.padEnd(30)}    spread of left-out sets   hit@1 ${spread(0).toFixed(3)} hit@5 ${spread(1).toFixed(3)} mrr@10 ${spread(2).toFixed(3)}`);
  bySet.set(name, row);
}

/** Folds (left-out sets) on which each model beats the first one, by MRR@10 and by hit@1. */
function summary(): void {
  const [reference, ...others] = [...bySet.keys()];
  if (!reference) return;
  console.log(`\nsummary (hit@1 / hit@5 / MRR@10 per left-out set; wins against "${reference}" by MRR@10, by hit@1)`);
  for (const [name, row] of bySet) {
    const cells = [...setNames, 'pooled'].map((set) => row.get(set)!.map((x) => x.toFixed(3)).join('/'));
    const wins = (i: number) => setNames.filter((set) => row.get(set)![i]! > bySet.get(reference)!.get(set)![i]! + 1e-9).length;
    console.log(`${name.padEnd(30)} ${cells.join('  ')}${others.includes(name) ? `  wins ${wins(2)}/${setNames.length}, ${wins(0)}/${setNames.length}` : ''}`);
  }
}

// FIT_CANDIDATES=400: stage one keeps that many candidates (search-index.ts CANDIDATES) for this run, fit and test alike.
if (process.env.FIT_CANDIDATES) CANDIDATES.value = Number(process.env.FIT_CANDIDATES);
const pseudo = pseudoQueriesFromEnv(harness.tools);
if (pseudo.length) console.log(`+ ${pseudo.length} pseudo-queries from the catalog (weight ${pseudo[0]!.weight} each), in every fold's linear fit; e.g. ${pseudo.slice(0, 3).map((q) => `"${q.query}" → ${[...q.acceptable][0]}`).join('; ')}`);
// FIT_CUES=0: the catalog's framework cues (query.ts CUE_SOURCES) off for the whole run, lists, fits and ranking alike
// (the ablation mode's `cues` row, for any mode: forward-chaining judges them against a run without it).
if (process.env.FIT_CUES === '0') Object.assign(CUE_SOURCES, { hand: false, derived: false });
// Real queries first, pseudo-queries after: report() reads the real ones only.
const fitQueries = [...queries, ...pseudo];
let lists = await candidateLists(harness, fitQueries, HAND_WEIGHTS);

if (mode === 'loso') {
  const lambdas = (process.env.FIT_LAMBDAS ?? '0.00001,0.001,0.01,0.1').split(',').map(Number);
  // FIT_LINEAR_TRY=0: only the boosted model (its linear part is fit anyway).
  // FIT_FROZEN=a+b: these features held at 0 in every model of the run (a variant, with its rows in FIT_LOSO_OUT).
  const frozen = process.env.FIT_FROZEN ? new Set(process.env.FIT_FROZEN.split('+') as Feature[]) : undefined;
  const unknown = [...frozen ?? []].filter((f) => !FEATURES.includes(f));
  if (unknown.length) throw new Error(`FIT_FROZEN: ${unknown.join(', ')} not in FEATURES (${FEATURES.join(', ')})`);
  const specs: ModelSpec[] = process.env.FIT_LINEAR_TRY === '0' ? [] : lambdas.map((lambda) => ({ name: `linear λ=${lambda}`, lambda, margins, frozen }));
  if (process.env.FIT_TREES_TRY !== '0') {
    const lambda = Number(process.env.FIT_TREE_LAMBDA ?? lambdas[0]);
    const b = BOOST_DEFAULTS;
    specs.push({ name: `lambdamart ${b.rounds}×d${b.depth} η${b.shrinkage}`, lambda, margins, boost: BOOST_DEFAULTS, frozen });
  }
  for (const spec of specs) {
    const tops = new Map<LabelledQuery, string[]>();
    const positions = await leaveOneSetOut(harness, fitQueries, lists, spec, undefined, tops);
    report(spec.name, positions);
    // FIT_LOSO_OUT=file: each left-out query's row as bench/search-quick.ts QUICK_OUT writes it (set, ecosystem, named,
    // position from 1 or 0, query, top 5, answers), for scripts/search-miss-classes.ts; printable sets only.
    if (process.env.FIT_LOSO_OUT) {
      const rows = queries.filter((q) => tops.has(q) && queriesPrintable(path.join(import.meta.dirname, '../bench', `${q.set}.tsv`)))
        .map((q) => [q.set, q.ecosystem, q.named ? 'y' : 'n', positions.get(q)! + 1, q.query, tops.get(q)!.slice(0, 5).join(' '), [...q.acceptable].join(' ')].join('\t'));
      fs.appendFileSync(process.env.FIT_LOSO_OUT, rows.join('\n') + '\n');
    }
  }
  summary();
} else if (mode === 'ablation') {
  const lambda = Number(process.env.FIT_LAMBDA ?? 0.00001);
  const groups: Array<[string, Feature[]]> = [
    ['coverage', ['coverage']],
    ['fieldCoverage', ['describedCoverage', 'readmeCoverage']],
    ['describedCoverage', ['describedCoverage']], ['readmeCoverage', ['readmeCoverage']],
    ['popularity', ['popularitySq']], ['intent', ['intentMatch', 'intentOther']],
    ['exactName', ['exactAlone', 'exactAlonePop', 'exactPhrase', 'exactAloneLead']],
    ['meaning (both)', ['meaning', 'meaningRaw']], ['meaning', ['meaning']], ['meaningRaw', ['meaningRaw']],
    ['namesakes', ['namesakes']], ['cues', []],
  ];
  // FIT_ABLATE=none: the base rows only (with FIT_ABLATE_TREES=1, the model with and without its trees).
  const only = process.env.FIT_ABLATE === 'none' ? [] : process.env.FIT_ABLATE?.split(',');
  // FIT_ABLATE_TREES=1: ablate the boosted model (the trees refit without the feature too: they read it as 0).
  const boost = process.env.FIT_ABLATE_TREES === '1' ? BOOST_DEFAULTS : undefined;
  // FIT_FROZEN=a+b: features held at 0 in every row, the base row included (a pruned group, as the shipped model holds it).
  const base = new Set((process.env.FIT_FROZEN ?? '').split('+').filter(Boolean) as Feature[]);
  const unknownBase = [...base].filter((f) => !FEATURES.includes(f));
  if (unknownBase.length) throw new Error(`FIT_FROZEN: ${unknownBase.join(', ')} not in FEATURES (${FEATURES.join(', ')})`);
  const held = (features: Iterable<Feature>) => new Set([...base, ...features]);
  // FIT_ABLATE_BASE=0 skips the all-features row (deterministic: the loso mode's row of the same model). With the trees,
  // the same folds' linear parts alone are the trees' ablation ("without trees"), at no second fit.
  if (process.env.FIT_ABLATE_BASE !== '0') {
    const linear = new Map<LabelledQuery, number>();
    report('all features', await leaveOneSetOut(harness, fitQueries, lists, { name: 'all', lambda, margins, frozen: held([]), boost }, linear));
    if (boost) report('without trees', linear);
  }
  // In FIT_ABLATE's order when given (the most wanted rows first on a loaded machine).
  const chosen = only ? only.map((name) => groups.find(([group]) => group === name) ?? [name, []] as [string, Feature[]]) : groups;
  for (const [group, frozen] of chosen) {
    // `a+b`: the named features held at 0 together (variants of one signal, e.g. popularitySq+popularityMeasured); a
    // feature's own name that is no group holds that feature alone.
    if (group.includes('+') || !groups.some(([name]) => name === group) && (FEATURES as readonly string[]).includes(group)) {
      const named = group.split('+') as Feature[];
      const unknown = named.filter((f) => !FEATURES.includes(f));
      if (unknown.length) throw new Error(`FIT_ABLATE: ${unknown.join(', ')} not in FEATURES (${FEATURES.join(', ')})`);
      report(`without ${group}`, await leaveOneSetOut(harness, fitQueries, lists, { name: group, lambda, margins, frozen: held(named), boost }));
      continue;
    }
    if (!groups.some(([name]) => name === group)) throw new Error(`FIT_ABLATE: ${group} is none of ${groups.map(([name]) => name).join(', ')}`);
    if (group === 'cues') {
      // The framework cues the search reads from the catalog (query.ts CUE_SOURCES): off for parsing, fit and ranking alike.
      const saved = { ...CUE_SOURCES };
      Object.assign(CUE_SOURCES, { hand: false, derived: false });
      try {
        report('without cues', await leaveOneSetOut(harness, fitQueries, await candidateLists(harness, fitQueries, HAND_WEIGHTS), { name: group, lambda, margins, frozen: held([]), boost }));
      } finally {
        Object.assign(CUE_SOURCES, saved);
      }
      continue;
    }
    report(`without ${group}`, await leaveOneSetOut(harness, fitQueries, lists, { name: group, lambda, margins, frozen: held(frozen), boost }));
  }
  summary();
} else if (mode === 'recall') {
  // Stage one's order, from the features (rank.ts): coverage, popularity and intent with the shipped weights.
  const stageOne = (v: number[]) => (['coverage', 'popularitySq', 'intentMatch', 'intentOther'] as const)
    .reduce((sum, f) => sum + WEIGHTS[f] * v[FEATURES.indexOf(f)]!, 0);
  const widths = (process.env.FIT_WIDTHS ?? '10,30,100,120,400').split(',').map(Number);
  const shipped = CANDIDATES.value;
  const rows: string[] = [];
  for (const width of widths) {
    CANDIDATES.value = width;
    const gathered = await candidateLists(harness, queries, WEIGHTS);
    const found = new Map<LabelledQuery, number>();
    queries.forEach((q, i) => {
      const list = gathered[i]!;
      const order = list.features.map((v, k) => ({ s: stageOne(v), k })).sort((a, b) => b.s - a.s || a.k - b.k);
      found.set(q, order.findIndex(({ k }) => list.relevant[k]));
    });
    const size = gathered.reduce((sum, l) => sum + l.features.length, 0) / gathered.length;
    for (const [slice, part] of slices(queries)) {
      const inList = part.filter((q) => found.get(q)! >= 0).length / Math.max(1, part.length);
      const at = (k: number) => part.filter((q) => found.get(q)! >= 0 && found.get(q)! < k).length / Math.max(1, part.length);
      rows.push(`width ${String(width).padStart(3)} (mean list ${size.toFixed(0)})  ${slice.padEnd(8)} n=${String(part.length).padStart(3)} `
        + `in candidates ${inList.toFixed(3)}  stage-one rank <10 ${at(10).toFixed(3)} <30 ${at(30).toFixed(3)} <100 ${at(100).toFixed(3)}`);
    }
    console.log(rows.splice(0).join('\n'));
    console.log(`(${Math.round((Date.now() - started) / 1000)} s, load ${load()})`);
  }
  CANDIDATES.value = shipped;
} else if (mode === 'forward') {
  await forwardChaining();
} else {
  throw new Error(`FIT_MODE=${mode}: loso, forward, recall or ablation`);
}
console.log(`${mode} done in ${Math.round((Date.now() - started) / 1000)} s (load ${load()}; ${os.cpus().length} cores, shared)`);

/**
 * Forward-chaining (FIT_MODE=forward): for each judged set, fit on the sets written before it and rank it with that fit,
 * as the fresh run ranks a set its writer wrote after every training set. Model rows: per λ, the linear model and the
 * linear model boosted by each tree setting of FIT_TREE_GRID (the trees over the same fold's linear fit).
 */
async function forwardChaining(): Promise<void> {
  const order = TRAINING_FILES.map((file) => path.basename(file, '.tsv'));
  const judged = (process.env.FIT_FORWARD_SETS ?? 'search-fresh-r10,search-fresh-r11,search-fresh-r12,search-fresh-r13,search-fresh-r14,search-fresh-r15,search-fresh-r16,search-fresh-r17,search-fresh-r18,search-fresh-r19,search-fresh-r20').split(',');
  const unknownSet = judged.filter((set) => !order.includes(set));
  if (unknownSet.length) throw new Error(`FIT_FORWARD_SETS: ${unknownSet.join(', ')} not in TRAINING_FILES`);
  const lambdas = (process.env.FIT_LAMBDAS ?? '0.00001').split(',').map(Number);
  const grid: Array<BoostSettings | undefined> = (process.env.FIT_TREE_GRID ?? `none,${BOOST_DEFAULTS.rounds}x${BOOST_DEFAULTS.depth}`).split(',').map((cell) => {
    if (cell === 'none') return undefined;
    const [rounds, depth, shrinkage] = cell.split('x').map(Number);
    return { ...BOOST_DEFAULTS, rounds: rounds!, depth: depth!, shrinkage: shrinkage ?? BOOST_DEFAULTS.shrinkage };
  });
  const always = (process.env.FIT_FROZEN ?? '').split('+').filter(Boolean);
  const variants = (process.env.FIT_FROZEN_VARIANTS ?? '-').split(';').map((v) => new Set([...always, ...v.split('+').filter((f) => f && f !== '-')] as Feature[]));
  const unknown = variants.flatMap((v) => [...v]).filter((f) => !FEATURES.includes(f));
  if (unknown.length) throw new Error(`FIT_FROZEN(_VARIANTS): ${unknown.join(', ')} not in FEATURES (${FEATURES.join(', ')})`);
  const judgedQueries = queries.filter((q) => judged.includes(q.set));
  const rows = new Map<string, Map<LabelledQuery, number>>();
  const tops = new Map<string, Map<LabelledQuery, string[]>>();
  const shippedPool = { ...SEMANTIC_POOL };
  const pools = poolVariants(process.env.FIT_POOL_VARIANTS ?? '-', shippedPool);
  let poolLabel = '';
  const nameOf = (frozen: Set<Feature>, lambda: number, boost?: BoostSettings) =>
    `${boost ? `${boost.rounds}×d${boost.depth} η${boost.shrinkage}` : 'linear'} λ=${lambda}${frozen.size > always.length ? ` −${[...frozen].filter((f) => !always.includes(f)).join('−')}` : ''}${poolLabel}`;
  for (const [p, pool] of pools.entries()) {
    // Another meaning pool changes every candidate list, the fit's included: gathered again (the first pool's are `lists`).
    Object.assign(SEMANTIC_POOL, { candidates: pool.candidates, scanBelow: pool.scanBelow });
    poolLabel = pool.label;
    if (p > 0 || pool.label) lists = await candidateLists(harness, fitQueries, HAND_WEIGHTS);
    for (const frozen of variants.filter((_, v) => !pool.variants || pool.variants.includes(v))) {
      for (const lambda of lambdas) {
        for (const set of judged) {
          // Sets written before this one (their position in TRAINING_FILES), and the pseudo-queries (weak supervision) if any.
          const before = (q: LabelledQuery) => q.trainOnly || writtenBefore(order, q.set, set);
          const train = fitQueries.map((q, i) => ({ q, list: lists[i]! })).filter(({ q }) => before(q));
          const linear = await fitModel(harness, train.map((t) => t.list), train.map((t) => t.q), lambda, frozen, margins);
          const test = queries.filter((q) => q.set === set);
          // The trees learn from people's queries only, over the lists the fold's linear stage one gathers (fitSpec's way).
          const own = grid.some(Boolean) ? await candidateLists(harness, train.map((t) => t.q).filter((q) => !q.trainOnly), linear.weights) : [];
          const held = FEATURES.map((f, i) => (frozen.has(f) ? i : -1)).filter((i) => i >= 0);
          const seen = held.length === 0 ? own : own.map((list) => ({ ...list, features: list.features.map((v) => v.map((x, i) => (held.includes(i) ? 0 : x))) }));
          for (const boost of grid) {
            const name = nameOf(frozen, lambda, boost);
            const trees = boost ? fitTrees(seen, (vector) => score(vector, linear.weights), boost) : [];
            const top = tops.get(name) ?? new Map<LabelledQuery, string[]>();
            const positions = rows.get(name) ?? new Map<LabelledQuery, number>();
            for (const [q, at] of await positionsWith(harness, test, { ...linear, trees }, top)) positions.set(q, at);
            rows.set(name, positions);
            tops.set(name, top);
          }
          console.log(`  fold ${set}: fit on ${new Set(train.filter(({ q }) => !q.trainOnly).map(({ q }) => q.set)).size} sets, ${train.length} queries (${Math.round((Date.now() - started) / 1000)} s, load ${load()})`);
        }
        for (const boost of grid) forwardReport(nameOf(frozen, lambda, boost), judged, judgedQueries, rows.get(nameOf(frozen, lambda, boost))!);
      }
    }
  }
  Object.assign(SEMANTIC_POOL, { candidates: shippedPool.candidates, scanBelow: shippedPool.scanBelow });
  // FIT_LOSO_OUT=file.tsv: each judged query's row (scripts/search-miss-classes.ts), printable sets only: the first model's
  // in file.tsv, each other model's in file-<n>.tsv (n = its place in the summary, from 2), so two rows' classes compare.
  const out = process.env.FIT_LOSO_OUT;
  if (out) {
    const printable = judgedQueries.filter((q) => queriesPrintable(path.join(import.meta.dirname, '../bench', `${q.set}.tsv`)));
    [...rows.keys()].forEach((name, n) => {
      const lines = printable.map((q) => [q.set, q.ecosystem, q.named ? 'y' : 'n', rows.get(name)!.get(q)! + 1, q.query, tops.get(name)!.get(q)!.slice(0, 5).join(' '), [...q.acceptable].join(' ')].join('\t'));
      fs.writeFileSync(rowOutFile(out, n), lines.join('\n') + '\n');
    });
  }
  // Summary: per set hit@1/hit@5/MRR@10, the mean over sets, and each model against the first by queries per set.
  const [reference] = rows.keys();
  console.log(`\nforward-chaining summary (hit@1 / hit@5 / MRR@10 per judged set, mean over sets, pooled; Δ queries at hit@1 and hit@5 against "${reference}" per set)`);
  for (const [name, positions] of rows) {
    const per = judged.map((set) => reportOf(judgedQueries.filter((q) => q.set === set), positions));
    const mean = (pick: (r: ReturnType<typeof reportOf>) => number) => meanOverSets(per.map(pick)).toFixed(3);
    const pooled = reportOf(judgedQueries, positions);
    const delta = (k: number) => judged.map((set) => {
      const inSet = judgedQueries.filter((q) => q.set === set);
      const hits = (p: Map<LabelledQuery, number>) => inSet.filter((q) => p.get(q)! >= 0 && p.get(q)! < k).length;
      return hits(positions) - hits(rows.get(reference!)!);
    });
    const cells = per.map((r) => [r.hitAt1, r.hitAt5, r.mrrAt10].map((x) => x.toFixed(3)).join('/'));
    console.log(`${name.padEnd(34)} ${cells.join('  ')}  mean ${mean((r) => r.hitAt1)}/${mean((r) => r.hitAt5)}/${mean((r) => r.mrrAt10)}  pooled ${pooled.hitAt1.toFixed(3)}/${pooled.hitAt5.toFixed(3)}/${pooled.mrrAt10.toFixed(3)}`
      + (name === reference ? '' : `  Δ@1 ${delta(1).join(',')} Δ@5 ${delta(5).join(',')}`));
  }
}

/** One model's forward-chaining rows: per judged set (with its slices for the newest), the mean over sets and pooled. */
function forwardReport(name: string, judged: string[], judgedQueries: LabelledQuery[], positions: Map<LabelledQuery, number>): void {
  for (const set of judged) {
    const inSet = judgedQueries.filter((q) => q.set === set);
    console.log(`${name.padEnd(34)} judged ${set.padEnd(16)} ${fmt(reportOf(inSet, positions))}`);
  }
  for (const [slice, part] of slices(judgedQueries)) console.log(`${''.padEnd(34)}    pooled ${slice.padEnd(18)} ${fmt(reportOf(part, positions))}`);
}
