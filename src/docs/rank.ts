// rerank: orders full-text candidates by a BM25 score over the question's stemmed words (title counted thrice),
// the share of the question's information (idf) each covers anywhere and in its headings, the full-text rank,
// and an exact-identifier boost. Pure: candidates in, ordered passages out.
import type { PassageRow } from './repository.ts';

export interface Ranked extends PassageRow { score: number }
export interface WeightedLexeme { lexeme: string; weight: number }

export const WEIGHTS = { bm25: 1.0, coverage: 1.0, headings: 0.7, fts: 0.45, exact: 0.5, tiny: 0.3 };
const K1 = 1.2;
const B = 0.75;
const TITLE_REPEAT = 3;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Term frequencies by pattern, not by tokenising every candidate: a Snowball stem is a prefix of the words it
 * comes from, found at a word start, or after a lower-case letter as a camelCase part (`requiredOption`).
 */
function bm25(candidates: PassageRow[], lexemes: WeightedLexeme[]): number[] {
  const patterns = lexemes.map(({ lexeme, weight }) => ({
    weight,
    wordStart: new RegExp(`(?<![\\p{L}\\p{N}])${escape(lexeme)}`, 'giu'),
    camelPart: new RegExp(`(?<=[a-z0-9])${escape(lexeme.charAt(0).toUpperCase() + lexeme.slice(1))}`, 'gu'),
  }));
  const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
  const docs = candidates.map((c) => {
    const text = `${c.headings.slice(0, -1).join(' ')}\n${c.content}`;
    const tokens = (value: string) => value.split(/[^\p{L}\p{N}_]+/u).length;
    return { title: c.title ?? '', text, length: tokens(text) + TITLE_REPEAT * tokens(c.title ?? '') };
  });
  const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length) || 1;
  return docs.map((doc) => patterns.reduce((score, p) => {
    const tf = TITLE_REPEAT * (count(doc.title, p.wordStart) + count(doc.title, p.camelPart)) + count(doc.text, p.wordStart) + count(doc.text, p.camelPart);
    return score + (tf ? p.weight * (tf * (K1 + 1)) / (tf + K1 * (1 - B + B * doc.length / avg)) : 0);
  }, 0));
}

/** `lexemes` carry idf weights; coverage is the share of the question's information a passage holds. */
export function rerank(candidates: PassageRow[], lexemes: WeightedLexeme[]): Ranked[] {
  if (!candidates.length) return [];
  const totalWeight = lexemes.reduce((sum, l) => sum + l.weight, 0);
  const n = totalWeight > 0 ? totalWeight : 1;
  const maxFts = Math.max(...candidates.map((c) => c.fts)) || 1;
  const lexical = bm25(candidates, lexemes);
  const maxLexical = Math.max(...lexical) || 1;
  return candidates
    .map((c, i) => {
      const tiny = c.content.length < 120 ? WEIGHTS.tiny : 0;
      const score = WEIGHTS.bm25 * (lexical[i]! / maxLexical) + WEIGHTS.coverage * (c.covered / n)
        + WEIGHTS.headings * (c.headingHits / n) + WEIGHTS.fts * (c.fts / maxFts) + (c.exact ? WEIGHTS.exact : 0) - tiny;
      return { ...c, score };
    })
    .sort((a, b) => b.score - a.score || a.id - b.id);
}
