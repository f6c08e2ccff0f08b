// Ranking: blends the full-text score with popularity, ecosystem intent and exact-name matches.
// Weights were tuned on bench/search-queries.tsv; `npm run bench:search` reports the effect.
import type { Ecosystem } from './types.ts';

export interface Candidate {
  slug: string;
  name: string;
  ecosystem: Ecosystem;
  popularity: number;
  /** Raw full-text score from the index. */
  textScore: number;
  /** Query terms this tool matched (from the index). */
  matchedTerms: number;
  /** Share of the categories the query asks for that this tool is filed under (0..1). */
  categoryMatch: number;
}

export interface RankContext {
  termCount: number;
  ecosystem?: Ecosystem;
  /** Query as a name ("react query" → "react-query"). */
  nameGuess: string;
}

export const WEIGHTS = {
  text: 1.0,
  coverage: 1.0,
  popularity: 2.0,
  ecosystemIntent: 3.0,
  exactName: 3.0,
  category: 0.4,
};

/** Name forms compared for an exact match: `@tanstack/react-query`, `react-query`, `github.com/gin-gonic/gin` → `gin`. */
export function nameForms(name: string): string[] {
  const lower = name.toLowerCase();
  const last = lower.split('/').filter((part) => !/^v\d+$/.test(part)).pop() ?? lower;
  return [lower, last, lower.replace(/^@/, '').replace('/', '-')].map((form) => form.replace(/[_.\s]+/g, '-'));
}

export function rankScore(candidate: Candidate, context: RankContext, maxTextScore: number): number {
  const text = maxTextScore > 0 ? candidate.textScore / maxTextScore : 0;
  const coverage = context.termCount > 0 ? Math.min(1, candidate.matchedTerms / context.termCount) : 0;
  const exact = nameForms(candidate.name).includes(context.nameGuess) ? 1 : 0;
  const intent = context.ecosystem ? (candidate.ecosystem === context.ecosystem ? 1 : -0.5) : 0;
  return (
    WEIGHTS.text * text +
    WEIGHTS.coverage * coverage +
    WEIGHTS.popularity * candidate.popularity +
    WEIGHTS.ecosystemIntent * intent +
    WEIGHTS.exactName * exact +
    WEIGHTS.category * candidate.categoryMatch
  );
}

export function rankCandidates(candidates: Candidate[], context: RankContext): Array<Candidate & { score: number }> {
  const maxText = candidates.reduce((max, candidate) => Math.max(max, candidate.textScore), 0);
  return candidates
    .map((candidate) => ({ ...candidate, score: rankScore(candidate, context, maxText) }))
    .sort((a, b) => b.score - a.score || b.popularity - a.popularity || a.slug.localeCompare(b.slug));
}
