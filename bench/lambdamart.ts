// A small LambdaMART (gradient-boosted regression trees with lambda gradients) boosting the fitted linear ranking score:
// the trees learn what the linear expression cannot (interactions, thresholds) from the same candidate lists and
// features. Deterministic (no sampling): histogram splits on each feature's distinct values (at most BINS quantiles),
// Newton leaf values, shrinkage. The trees are read at query time by src/catalog/rank-trees.ts.
import type { TreeNode } from '../src/catalog/rank-trees.ts';
import { treeValue } from '../src/catalog/rank-trees.ts';
import type { CandidateList } from './search-harness.ts';

export interface BoostSettings {
  rounds: number;
  depth: number;
  shrinkage: number;
  /** Least Hessian mass (sum of ρ(1−ρ)·|ΔNDCG|) a leaf may hold, and the L2 penalty on leaf values. */
  minLeaf: number;
  l2: number;
}

// 20 trees since round 15: forward-chaining over r10–r14 tied them with the 40 shipped before (docs/search.md, "Round 15").
export const BOOST_DEFAULTS: BoostSettings = {
  rounds: Number(process.env.FIT_TREE_ROUNDS ?? 20), depth: Number(process.env.FIT_TREE_DEPTH ?? 3),
  shrinkage: Number(process.env.FIT_TREE_SHRINKAGE ?? 0.1), minLeaf: Number(process.env.FIT_TREE_MIN_LEAF ?? 1), l2: Number(process.env.FIT_TREE_L2 ?? 1),
};

const BINS = 32;
/** Gains are truncated at this rank (NDCG@10: hit@1 and MRR@10 are what the search is judged by). */
const CUTOFF = 10;

/** Candidate thresholds of one feature: up to BINS quantiles of its distinct values. */
function thresholds(values: Float64Array): number[] {
  const sorted = Float64Array.from(values).sort();
  const distinct: number[] = [];
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct.push(sorted[i]!);
  if (distinct.length <= BINS) return distinct.slice(1);
  const out = new Set<number>();
  for (let b = 1; b < BINS; b++) out.add(sorted[Math.floor((b * sorted.length) / BINS)]!);
  return [...out].filter((t) => t > distinct[0]!).sort((a, b) => a - b);
}

/**
 * Fits `rounds` trees over the lists, starting from each candidate's `base` score (the linear model's). Lists without an
 * acceptable candidate carry no gradient and are skipped.
 */
export function fitTrees(lists: CandidateList[], base: (vector: number[]) => number, settings: BoostSettings = BOOST_DEFAULTS): TreeNode[] {
  const queries = lists.filter((list) => list.relevant.some(Boolean) && list.relevant.some((r) => !r));
  const rows: number[][] = [];
  const starts: number[] = [];
  const relevant: boolean[] = [];
  for (const list of queries) {
    starts.push(rows.length);
    list.features.forEach((vector, i) => {
      rows.push(vector);
      relevant.push(list.relevant[i]!);
    });
  }
  starts.push(rows.length);
  const n = rows.length;
  if (n === 0) return [];
  const dims = rows[0]!.length;
  const cuts = Array.from({ length: dims }, (_, f) => thresholds(Float64Array.from(rows, (row) => row[f]!)));
  // Each row's bin per feature (index of the first threshold above its value), computed once.
  const bins = Array.from({ length: dims }, (_, f) => Uint8Array.from(rows, (row) => {
    const t = cuts[f]!;
    let lo = 0;
    let hi = t.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (row[f]! < t[mid]!) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }));
  const scores = Float64Array.from(rows, (row) => base(row));
  const trees: TreeNode[] = [];
  const gradient = new Float64Array(n);
  const hessian = new Float64Array(n);
  for (let round = 0; round < settings.rounds; round++) {
    gradient.fill(0);
    hessian.fill(0);
    for (let q = 0; q < queries.length; q++) lambdas(starts[q]!, starts[q + 1]!, scores, relevant, gradient, hessian);
    const tree = grow(Int32Array.from({ length: n }, (_, i) => i), 0, settings, bins, cuts, gradient, hessian);
    trees.push(tree);
    for (let i = 0; i < n; i++) scores[i]! += treeValue(tree, rows[i]!);
  }
  return trees;
}

/** LambdaRank gradients of one query's rows [from, to): pairs (acceptable, other) weighted by |ΔNDCG@10| of swapping them. */
function lambdas(from: number, to: number, scores: Float64Array, relevant: boolean[], gradient: Float64Array, hessian: Float64Array): void {
  const order = Array.from({ length: to - from }, (_, i) => from + i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const rank = new Map<number, number>();
  order.forEach((row, i) => rank.set(row, i));
  const discount = (r: number) => (r < CUTOFF ? 1 / Math.log2(r + 2) : 0);
  let positives = 0;
  for (let i = from; i < to; i++) if (relevant[i]) positives++;
  let ideal = 0;
  for (let r = 0; r < Math.min(positives, CUTOFF); r++) ideal += discount(r);
  if (ideal === 0) return;
  for (let i = from; i < to; i++) {
    if (!relevant[i]) continue;
    for (let j = from; j < to; j++) {
      if (relevant[j]) continue;
      const delta = Math.abs(discount(rank.get(i)!) - discount(rank.get(j)!)) / ideal;
      if (delta === 0) continue;
      const rho = 1 / (1 + Math.exp(scores[i]! - scores[j]!));
      gradient[i]! += rho * delta;
      gradient[j]! -= rho * delta;
      const h = rho * (1 - rho) * delta;
      hessian[i]! += h;
      hessian[j]! += h;
    }
  }
}

/** Grows one tree on the rows given: the split of largest Newton gain, down to `depth`; leaves are shrunk Newton steps. */
function grow(
  rows: Int32Array, level: number, settings: BoostSettings, bins: Uint8Array[], cuts: number[][], gradient: Float64Array, hessian: Float64Array,
): TreeNode {
  let g = 0;
  let h = 0;
  for (const i of rows) {
    g += gradient[i]!;
    h += hessian[i]!;
  }
  const leaf = round((settings.shrinkage * g) / (h + settings.l2));
  if (level >= settings.depth) return leaf;
  const parent = (g * g) / (h + settings.l2);
  let best = { gain: 1e-9, feature: -1, bin: 0 };
  for (let f = 0; f < bins.length; f++) {
    const count = cuts[f]!.length + 1;
    if (count < 2) continue;
    const gs = new Float64Array(count);
    const hs = new Float64Array(count);
    const column = bins[f]!;
    for (const i of rows) {
      gs[column[i]!]! += gradient[i]!;
      hs[column[i]!]! += hessian[i]!;
    }
    let gl = 0;
    let hl = 0;
    for (let b = 0; b < count - 1; b++) {
      gl += gs[b]!;
      hl += hs[b]!;
      const hr = h - hl;
      if (hl < settings.minLeaf || hr < settings.minLeaf) continue;
      const gr = g - gl;
      const gain = (gl * gl) / (hl + settings.l2) + (gr * gr) / (hr + settings.l2) - parent;
      if (gain > best.gain) best = { gain, feature: f, bin: b };
    }
  }
  if (best.feature < 0) return leaf;
  const column = bins[best.feature]!;
  const below = rows.filter((i) => column[i]! <= best.bin);
  const above = rows.filter((i) => column[i]! > best.bin);
  return [
    best.feature, cuts[best.feature]![best.bin]!,
    grow(below, level + 1, settings, bins, cuts, gradient, hessian), grow(above, level + 1, settings, bins, cuts, gradient, hessian),
  ];
}

const round = (x: number) => Math.round(x * 1e5) / 1e5;
