// Which ecosystem a query's words belong to, read from the catalog itself (no list of cue words): for each word, its
// popularity-weighted share among each ecosystem's tools whose own text (name, description, keywords, tags) has it.
// A query that names no language is then placed by its words: "migrations for active record models" leans to
// RubyGems because popular gems say "active" and "record" far more often than popular crates do. The ranking reads
// the share of the candidate's own ecosystem as a declared feature (rank.ts `ecosystemAffinity`), with a fitted weight.
import { ECOSYSTEMS } from './types.ts';

/** Per-ecosystem popularity-weighted counts of one word's tools (ECOSYSTEMS order). */
export type EcosystemCounts = Float64Array;

/**
 * Smoothing toward the word's catalog-wide rate, in tools' worth of popularity mass: an ecosystem with few tools (the
 * catalog holds ~580 gems against ~51,000 npm packages) has little evidence either way and stays near the pooled rate
 * instead of being favoured because a word is missing from its few tools. Sweeping 10..1000 and other popularity
 * weightings moved the ecosystem guessed right for queries naming none by about 0.02 (docs/search.md).
 */
export const AFFINITY_SMOOTHING = 30;

/**
 * The ecosystem distribution of a query: a naive-Bayes posterior under a uniform prior over ecosystems, each word's
 * likelihood in ecosystem e being (count_e + μ·pooled) / (mass_e + μ) (Dirichlet smoothing toward the word's rate in
 * the whole catalog). The log-likelihoods are averaged over the words (by their query weights) rather than summed,
 * so that a long query of mildly leaning words is not made certain while a single telling word ("activerecord")
 * still leads. Words no tool has carry no evidence and are skipped. Returns undefined when no word carries evidence.
 */
export function ecosystemPosterior(
  words: ReadonlyArray<{ weight: number; counts: EcosystemCounts }>, masses: ArrayLike<number>, smoothing = AFFINITY_SMOOTHING,
): Float64Array | undefined {
  const n = ECOSYSTEMS.length;
  let catalog = 0;
  for (let e = 0; e < n; e++) catalog += masses[e]!;
  const log = new Float64Array(n);
  let total = 0;
  for (const { weight, counts } of words) {
    let all = 0;
    for (let e = 0; e < n; e++) all += counts[e]!;
    if (all === 0 || weight <= 0 || catalog === 0) continue;
    const pooled = all / catalog;
    total += weight;
    for (let e = 0; e < n; e++) log[e]! += weight * Math.log((counts[e]! + smoothing * pooled) / (masses[e]! + smoothing));
  }
  if (total === 0) return undefined;
  let max = -Infinity;
  for (let e = 0; e < n; e++) max = Math.max(max, (log[e]! /= total));
  let sum = 0;
  for (let e = 0; e < n; e++) sum += (log[e] = Math.exp(log[e]! - max));
  for (let e = 0; e < n; e++) log[e]! /= sum;
  return log;
}
