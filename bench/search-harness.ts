// Shared by scripts/fit-ranking.ts and bench/search-ablation.ts: the shipped snapshot indexed in memory with the shipped
// vectors (as bench/search-quick.ts does), candidate lists with their feature vectors, a pairwise logistic fit of the
// ranking weights (Newton's method: deterministic), and k-fold cross-validation through the real search.
import fs from 'node:fs';
import os from 'node:os';
import { readSnapshot, DEFAULT_SNAPSHOT } from '../src/catalog/snapshot.ts';
import { CatalogSearchIndex, README_INDEX_CHARS } from '../src/catalog/search-index.ts';
import { CUE_SOURCES } from '../src/catalog/query.ts';
import { DEFAULT_VECTORS, loadToolVectors } from '../src/catalog/tool-vectors.ts';
import { FAMILY_MARGIN, FEATURES, score, TREES, WEIGHTS, type Feature } from '../src/catalog/rank.ts';
import type { TreeNode } from '../src/catalog/rank-trees.ts';
import { loadStaticEmbedder } from '../src/semantic/index.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import type { ToolRecord } from '../src/catalog/types.ts';
import { evaluate, type LabelledQuery, type QualityReport } from './search-quality.ts';
import { solve } from './linear-solve.ts';
import { fitTrees, type BoostSettings } from './lambdamart.ts';

export type Weights = Record<Feature, number>;

/** Fit settings: how many of a query's other candidates (the best ranked ones) each acceptable answer is paired with, and how many times the lists are gathered (see fitModel). */
export const FIT = { negatives: Number(process.env.FIT_NEGATIVES ?? 1000), rounds: Number(process.env.FIT_ROUNDS ?? 2) };

export interface Harness {
  index: CatalogSearchIndex;
  tools: ToolRecord[];
  embed(query: string): Promise<Float32Array | undefined>;
}

/**
 * BENCH_README_FILE=file.jsonl: {"slug", "readmeExcerpt"} lines replace those tools' stored README text (a re-extraction
 * of a sample's READMEs, scripts/search-readme-sample.ts), so an extractor change is measured without a catalog
 * rebuild. An empty text removes the tool's README text, as the build does for a README with no prose.
 */
export function applyReadmeFile(tools: ToolRecord[], file = process.env.BENCH_README_FILE): number {
  if (!file) return 0;
  const replaced = new Map<string, string>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { slug: string; readmeExcerpt: string };
    replaced.set(row.slug, row.readmeExcerpt);
  }
  let changed = 0;
  for (const tool of tools) {
    const text = replaced.get(tool.slug);
    if (text === undefined) continue;
    changed++;
    if (text) tool.extra.readmeExcerpt = text;
    else delete tool.extra.readmeExcerpt;
  }
  return changed;
}

export async function loadHarness(): Promise<Harness> {
  const tools: ToolRecord[] = [];
  for await (const tool of readSnapshot(process.env.TOOLDEX_SNAPSHOT ?? DEFAULT_SNAPSHOT)) tools.push(tool);
  applyReadmeFile(tools);
  // BENCH_README_CHARS=500: index a shorter README opening (the previous round's setting), for comparisons.
  if (process.env.BENCH_README_CHARS) README_INDEX_CHARS.value = Number(process.env.BENCH_README_CHARS);
  // BENCH_CUES: where framework cues come from, for comparisons: `derived` (shipped since round 8: from the catalog,
  // CatalogSearchIndex.frameworkOf), `hand` (the lists of query.ts), `both`, `none` (language words only).
  const cues = process.env.BENCH_CUES ?? 'derived';
  if (!['none', 'hand', 'derived', 'both'].includes(cues)) throw new Error(`BENCH_CUES=${cues}: none, hand, derived or both`);
  CUE_SOURCES.hand = cues === 'hand' || cues === 'both';
  CUE_SOURCES.derived = cues === 'derived' || cues === 'both';
  const index = CatalogSearchIndex.build(tools);
  const config = loadConfig({ TOOLDEX_HOME: os.tmpdir() });
  const embedder = await loadStaticEmbedder(config.TOOLDEX_SEMANTIC_MODEL_DIR);
  index.vectors = await loadToolVectors(embedder, index, DEFAULT_VECTORS, createLogger('warn'));
  const cache = new Map<string, Float32Array | undefined>();
  // As the catalog does: a peer query ("alternative to moment") is embedded from the named tool's description.
  const embed = async (query: string) => {
    const key = index.embeddingText(query).trim().toLowerCase();
    if (!cache.has(key)) cache.set(key, (await embedder.embed([key], 'query'))[0]);
    return cache.get(key);
  };
  return { index, tools, embed };
}

/** One query's candidates: feature vectors and which of them are acceptable answers. */
export interface CandidateList {
  query: string;
  features: number[][];
  relevant: boolean[];
  /** The query's weight in the linear fit (1 when absent; search-pseudo.ts). */
  weight?: number;
}

/** Candidate lists of the queries, with the stage-one weights given (the candidates depend on them a little). */
export async function candidateLists(harness: Harness, queries: LabelledQuery[], weights: Weights): Promise<CandidateList[]> {
  const saved = { ...WEIGHTS };
  const savedTrees = TREES.value;
  Object.assign(WEIGHTS, weights);
  TREES.value = []; // a linear stage: the lists a linear fit learns from
  try {
    const out: CandidateList[] = [];
    for (const q of queries) {
      const candidates = harness.index.candidateFeatures(q.query, {}, await harness.embed(q.query));
      out.push({ query: q.query, features: candidates.map((c) => c.features), relevant: candidates.map((c) => q.acceptable.has(c.slug)), weight: q.weight });
    }
    return out;
  } finally {
    Object.assign(WEIGHTS, saved);
    TREES.value = savedTrees;
  }
}

/**
 * Pairwise logistic regression (RankNet's loss with a linear scorer): for every (acceptable, other) pair of a query's
 * candidates, log(1 + exp(-w·(x⁺ − x⁻))); each query weighs the same; L2 penalty `lambda`. Features in `frozen` keep
 * weight 0 (an ablation). Newton's method on 15 weights converges in a few steps and gives the same answer every run.
 */
export function fitWeights(lists: CandidateList[], lambda: number, frozen: ReadonlySet<Feature> = new Set()): Weights {
  const hard = FIT.negatives;
  const free = FEATURES.map((f, i) => [f, i] as const).filter(([f]) => !frozen.has(f)).map(([, i]) => i);
  const d = free.length;
  const pairs: Array<{ diff: Float64Array; weight: number }> = [];
  let queries = 0;
  for (const list of lists) {
    const positives = list.features.filter((_, i) => list.relevant[i]);
    // Lists are in the order the extraction's weights ranked them: the first `hard` others are the competition.
    const negatives = list.features.filter((_, i) => !list.relevant[i]).slice(0, hard);
    if (positives.length === 0 || negatives.length === 0) continue;
    queries += list.weight ?? 1;
    const weight = (list.weight ?? 1) / (positives.length * negatives.length);
    for (const p of positives) for (const n of negatives) pairs.push({ diff: Float64Array.from(free, (i) => p[i]! - n[i]!), weight });
  }
  const w = new Float64Array(d);
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = new Float64Array(d);
    const hessian = Array.from({ length: d }, () => new Float64Array(d));
    for (const { diff, weight } of pairs) {
      let margin = 0;
      for (let j = 0; j < d; j++) margin += w[j]! * diff[j]!;
      const p = 1 / (1 + Math.exp(margin)); // σ(−margin): the gradient's share
      const scale = weight / queries;
      const curvature = scale * p * (1 - p);
      for (let j = 0; j < d; j++) {
        gradient[j]! -= scale * p * diff[j]!;
        if (curvature > 1e-12) for (let k = j; k < d; k++) hessian[j]![k]! += curvature * diff[j]! * diff[k]!;
      }
    }
    for (let j = 0; j < d; j++) {
      gradient[j]! += 2 * lambda * w[j]!;
      hessian[j]![j]! += 2 * lambda;
      for (let k = 0; k < j; k++) hessian[j]![k] = hessian[k]![j]!;
    }
    const step = solve(hessian, gradient);
    let change = 0;
    for (let j = 0; j < d; j++) {
      w[j]! -= step[j]!;
      change = Math.max(change, Math.abs(step[j]!));
    }
    if (change < 1e-7) break;
  }
  const out = Object.fromEntries(FEATURES.map((f) => [f, 0])) as Weights;
  free.forEach((i, j) => (out[FEATURES[i]!] = round(w[j]!)));
  return out;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** Runs the search with the given weights (and family margin) and measures it on the queries. */
export async function measure(harness: Harness, queries: LabelledQuery[], weights: Weights, margin: number, semantic = true): Promise<QualityReport> {
  const saved = { ...WEIGHTS };
  const savedMargin = FAMILY_MARGIN.value;
  const savedTrees = TREES.value;
  Object.assign(WEIGHTS, weights);
  FAMILY_MARGIN.value = margin;
  TREES.value = []; // the linear model these weights are
  try {
    return await evaluate(queries, async (q) =>
      harness.index.search(q, { limit: 10 }, semantic ? await harness.embed(q) : undefined).map((hit) => hit.tool.slug));
  } finally {
    Object.assign(WEIGHTS, saved);
    FAMILY_MARGIN.value = savedMargin;
    TREES.value = savedTrees;
  }
}

/**
 * Deterministic folds stratified by ecosystem (and by set): within each ecosystem, the queries in file order go to folds
 * 0, 1, …, k−1 in turn, so every fold has each ecosystem's share and each set's (tuning, held-out, spent fresh).
 */
export function folds<T extends { q: LabelledQuery }>(items: T[], k: number): T[][] {
  const out: T[][] = Array.from({ length: k }, () => []);
  const seen = new Map<string, number>();
  for (const item of items) {
    const n = seen.get(item.q.ecosystem) ?? 0;
    seen.set(item.q.ecosystem, n + 1);
    out[n % k]!.push(item);
  }
  return out;
}

export interface FitChoice {
  weights: Weights;
  margin: number;
}

/** Fits weights on the lists, then picks the family margin (in score units) that serves the training queries best. */
export async function fitModel(
  harness: Harness, lists: CandidateList[], queries: LabelledQuery[], lambda: number, frozen: ReadonlySet<Feature> = new Set(),
  margins: number[] = [0, 0.5, 1, 2],
): Promise<FitChoice> {
  let weights = fitWeights(lists, lambda, frozen);
  // Gather the lists again with the stage one these weights will run (the hand-set weights chose the first lists),
  // and refit on those: the fit then learns to rank the candidates the search will rank. Without it (FIT_ROUNDS=1)
  // the fitted popularity weight went negative and stage one, run with it, gathered the least used literal matches:
  // 5-fold CV on 721 queries 0.687 / 0.871 / 0.768 with one round, 0.713 / 0.903 / 0.796 with two (docs/search.md).
  for (let round = 1; round < FIT.rounds; round++) weights = fitWeights(await candidateLists(harness, queries, weights), lambda, frozen);
  let best: FitChoice & { mrr: number } = { weights, margin: margins[0]!, mrr: -1 };
  // One margin (FIT_MARGINS' default in the LOSO modes): nothing to choose, so no search pass over the training queries.
  for (const margin of margins.length > 1 ? margins : []) {
    const report = await measure(harness, queries, weights, margin);
    if (report.mrrAt10 > best.mrr + 1e-9) best = { weights, margin, mrr: report.mrrAt10 };
  }
  return { weights: best.weights, margin: best.margin };
}

/**
 * k-fold cross-validation: for each fold, fit on the others and rank the fold's queries with that fit. Returns every
 * query's ranking under a model that never saw it (as one report over all queries).
 */
export async function crossValidate(
  harness: Harness, queries: LabelledQuery[], lists: CandidateList[], k: number, lambda: number, frozen: ReadonlySet<Feature> = new Set(),
  margins?: number[],
): Promise<{ report: QualityReport; perQuery: Map<LabelledQuery, number> }> {
  const indexed = queries.map((q, i) => ({ q, list: lists[i]! }));
  const perQuery = new Map<LabelledQuery, number>();
  const fold = folds(indexed, k);
  for (let f = 0; f < k; f++) {
    const train = fold.filter((_, g) => g !== f).flat();
    const model = await fitModel(harness, train.map((t) => t.list), train.map((t) => t.q), lambda, frozen, margins);
    for (const [q, at] of await positionsWith(harness, fold[f]!.map((t) => t.q), { ...model, trees: [] })) perQuery.set(q, at);
  }
  return { report: reportOf(queries, perQuery), perQuery };
}

/**
 * Generalisation to queries written apart: fit on `train` only (its candidate lists), then rank `test` with that fit.
 * Returns each test query's first acceptable position.
 */
export async function trainThenRank(
  harness: Harness, train: LabelledQuery[], trainLists: CandidateList[], test: LabelledQuery[], lambda: number,
  frozen: ReadonlySet<Feature> = new Set(), margins?: number[],
): Promise<Map<LabelledQuery, number>> {
  const model = await fitModel(harness, trainLists, train, lambda, frozen, margins);
  return positionsWith(harness, test, { ...model, trees: [] });
}

/** hit@1 / hit@5 / MRR@10 from each query's first acceptable position (−1: none in the top 10). */
export function reportOf(queries: LabelledQuery[], positions: Map<LabelledQuery, number>): QualityReport {
  let hit1 = 0;
  let hit5 = 0;
  let reciprocal = 0;
  for (const q of queries) {
    const at = positions.get(q) ?? -1;
    if (at === 0) hit1++;
    if (at >= 0 && at < 5) hit5++;
    if (at >= 0) reciprocal += 1 / (at + 1);
  }
  const n = Math.max(1, queries.length);
  return { queries: queries.length, hitAt1: hit1 / n, hitAt5: hit5 / n, mrrAt10: reciprocal / n, misses: [] };
}

export const fmt = (r: QualityReport) => `n=${String(r.queries).padStart(3)} hit@1=${r.hitAt1.toFixed(3)} hit@5=${r.hitAt5.toFixed(3)} mrr@10=${r.mrrAt10.toFixed(3)}`;

/** A ranking model: linear weights, the family margin, and trees boosting the linear score (none: the linear model). */
export interface RankModel extends FitChoice {
  trees: readonly TreeNode[];
}

/** Ranks the queries through the real search with the model in effect; each query's first acceptable position. */
export async function positionsWith(
  harness: Harness, queries: LabelledQuery[], model: RankModel,
  /** Each query's top 10 slugs, when given (FIT_LOSO_OUT: misses read by class). */
  tops?: Map<LabelledQuery, string[]>,
): Promise<Map<LabelledQuery, number>> {
  const saved = { ...WEIGHTS };
  const savedMargin = FAMILY_MARGIN.value;
  const savedTrees = TREES.value;
  Object.assign(WEIGHTS, model.weights);
  FAMILY_MARGIN.value = model.margin;
  TREES.value = model.trees;
  try {
    const out = new Map<LabelledQuery, number>();
    for (const q of queries) {
      const slugs = harness.index.search(q.query, { limit: 10 }, await harness.embed(q.query)).map((hit) => hit.tool.slug);
      out.set(q, slugs.findIndex((slug) => q.acceptable.has(slug)));
      tops?.set(q, slugs);
    }
    return out;
  } finally {
    Object.assign(WEIGHTS, saved);
    FAMILY_MARGIN.value = savedMargin;
    TREES.value = savedTrees;
  }
}

export interface ModelSpec {
  name: string;
  lambda: number;
  frozen?: ReadonlySet<Feature>;
  /** Boost the fitted linear model with trees (LambdaMART) with these settings. */
  boost?: BoostSettings;
  margins?: number[];
}

/**
 * Fits one model on queries (their stage-one candidate lists gathered with the hand-set weights): the linear fit, then
 * for a boosted model, trees over the lists the fitted weights' stage one gathers, from the linear score.
 */
export async function fitSpec(harness: Harness, queries: LabelledQuery[], lists: CandidateList[], spec: ModelSpec): Promise<RankModel> {
  const linear = await fitModel(harness, lists, queries, spec.lambda, spec.frozen, spec.margins);
  if (!spec.boost) return { ...linear, trees: [] };
  // Trees learn from people's queries only: weak supervision (search-pseudo.ts) joins the linear fit alone.
  const own = await candidateLists(harness, queries.filter((q) => !q.trainOnly), linear.weights);
  // A feature held out of the model is held out of the trees too: constant, it offers no split.
  const held = FEATURES.map((f, i) => (spec.frozen?.has(f) ? i : -1)).filter((i) => i >= 0);
  const seen = held.length === 0 ? own : own.map((list) => ({ ...list, features: list.features.map((v) => v.map((x, i) => (held.includes(i) ? 0 : x))) }));
  const trees = fitTrees(seen, (vector) => score(vector, linear.weights), spec.boost);
  return { ...linear, trees };
}

/**
 * Leave-one-set-out validation: each labelled set (one writer, one round) is ranked by a model fit on the other sets
 * only. This is what a new person's queries look like to the ranking, where k-fold CV mixes every writer into training.
 * Returns each query's first acceptable position under the model that did not see its set.
 */
export async function leaveOneSetOut(
  harness: Harness, queries: LabelledQuery[], lists: CandidateList[], spec: ModelSpec,
  /** For a boosted spec: each query's position under the same fold's linear part alone (the trees' ablation, no second fit). */
  linearOut?: Map<LabelledQuery, number>,
  tops?: Map<LabelledQuery, string[]>,
): Promise<Map<LabelledQuery, number>> {
  const out = new Map<LabelledQuery, number>();
  // FIT_LEFT_OUT=search-fresh-r7: only these folds (a loaded machine's budget); the other sets' rows are then not measured.
  const only = process.env.FIT_LEFT_OUT?.split(',');
  for (const set of [...new Set(queries.filter((q) => !q.trainOnly).map((q) => q.set))]) {
    if (only && !only.includes(set)) continue;
    const train = queries.map((q, i) => ({ q, list: lists[i]! })).filter(({ q }) => q.set !== set);
    const model = await fitSpec(harness, train.map((t) => t.q), train.map((t) => t.list), spec);
    for (const [q, at] of await positionsWith(harness, queries.filter((q) => q.set === set), model, tops)) out.set(q, at);
    if (linearOut && spec.boost) {
      for (const [q, at] of await positionsWith(harness, queries.filter((q) => q.set === set), { ...model, trees: [] })) linearOut.set(q, at);
    }
  }
  return out;
}
