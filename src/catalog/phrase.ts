// Phrase (round 17, issue 21 "literal" misses): whether the query's words stand together in a tool's own one line (its
// registry description), not merely somewhere in its text. Coverage counts words wherever they are: a narrow
// package that says "bit" in one sentence and "flags" in another covers "bit flags" as fully as the crate whose one
// line is "a macro to generate structures which behave like bit flags". The text index keeps no positions, so this is
// computed on the candidates' stored descriptions at ranking time. (README openings are not kept in memory, only their
// postings: tool-table.ts.)
import { indexTerms } from './text-index.ts';

/** Two query words count as together when at most this many tokens lie between them in the tool's text ("timeout a promise"). */
const GAP = 1;

/** One pair of neighbouring query words (stemmed as the index stems them) and its weight. */
export interface QueryPair { a: string; b: string; weight: number }

/**
 * The neighbouring pairs of a query's content words, in query order (filler and ecosystem words already removed by
 * the parser), stemmed. A pair weighs the lesser of its words' weights (a framework cue word counts less). Fewer than
 * two words: no pairs, and the feature is 0 for every tool.
 */
export function queryPairs(terms: readonly string[], weights: ReadonlyMap<string, number>): QueryPair[] {
  const stemmed = terms.flatMap((term) => indexTerms(term).map((t) => ({ t, weight: weights.get(term) ?? 1 })));
  const pairs: QueryPair[] = [];
  for (let i = 1; i < stemmed.length; i++) {
    const [x, y] = [stemmed[i - 1]!, stemmed[i]!];
    if (x.t !== y.t) pairs.push({ a: x.t, b: y.t, weight: Math.min(x.weight, y.weight) });
  }
  return pairs;
}

/**
 * Weighted share (0..1) of the query's pairs whose two words stand within GAP tokens of each other, in either order
 * ("timeout a promise" says "promise timeout"), somewhere in the text. One pass over the text's tokens.
 */
export function phraseShare(pairs: readonly QueryPair[], text: string): number {
  if (pairs.length === 0) return 0;
  const last = new Map<string, number>();
  for (const { a, b } of pairs) last.set(a, -Infinity).set(b, -Infinity);
  const found = new Uint8Array(pairs.length);
  const tokens = indexTerms(text);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!last.has(t)) continue;
    for (let k = 0; k < pairs.length; k++) {
      const { a, b } = pairs[k]!;
      const other = a === t ? b : b === t ? a : undefined;
      if (other !== undefined && i - last.get(other)! <= GAP + 1) found[k] = 1;
    }
    last.set(t, i);
  }
  let total = 0;
  let share = 0;
  pairs.forEach(({ weight }, k) => {
    total += weight;
    share += found[k]! * weight;
  });
  return share / total;
}
