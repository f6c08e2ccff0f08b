// rerank: orders full-text candidates by how much of the question each covers (anywhere and in its headings),
// its full-text rank, and an exact-identifier boost. Pure: candidates in, ordered passages out.
import type { PassageRow } from './repository.ts';

export interface Ranked extends PassageRow { score: number }

export const WEIGHTS = { coverage: 1.0, headings: 0.35, fts: 0.45, exact: 0.5, tiny: 0.3 };

export function rerank(candidates: PassageRow[], lexemeCount: number): Ranked[] {
  if (!candidates.length) return [];
  const maxFts = Math.max(...candidates.map((c) => c.fts)) || 1;
  const n = Math.max(1, lexemeCount);
  return candidates
    .map((c) => {
      const tiny = c.content.length < 120 ? WEIGHTS.tiny : 0;
      const score = WEIGHTS.coverage * (c.covered / n) + WEIGHTS.headings * (c.headingHits / n)
        + WEIGHTS.fts * (c.fts / maxFts) + (c.exact ? WEIGHTS.exact : 0) - tiny;
      return { ...c, score };
    })
    .sort((a, b) => b.score - a.score || a.id - b.id);
}
