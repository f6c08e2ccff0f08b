// Mentions: how many other tools of the same ecosystem name a tool in their own text (description, keywords, tags,
// README opening): "Rate limiting middleware for actix-web based on governor" names actix-web and governor. A tool the
// rest of its ecosystem is written around is the canonical one; a narrow package that merely holds the query's words in
// its name is named by nobody. Unlike popularity (a measurement only for npm and PyPI), this is read from the catalog's
// own text in every ecosystem, from the postings the full-text index already holds (no list, no registry).
//
// A name that is a plain word ("time", "color", "requests") is "mentioned" by every text using the word. Such a name is
// mentioned about as often in the other ecosystems' texts, so the count kept is the lift over that rate: mentions
// within the ecosystem less what the other ecosystems' rate predicts for a text collection of that size.
import { nameParts } from './namesakes.ts';
import { LANGUAGE_WORDS } from './query.ts';
import { FIELD_BIT, indexTerms, type TermHits } from './text-index.ts';
import { ECOSYSTEMS, type Ecosystem } from './types.ts';

/** Field bits that count as a mention: any field but the tool's own name (namesakes read names). */
const TEXT_FIELDS = 0xff & ~FIELD_BIT.name;

/** The index terms a text must hold, all of them, to name the tool: its name's parts (an npm scope and a Go owner included). */
export function mentionTerms(ecosystem: Ecosystem, name: string, withOwner: boolean): string[] {
  const { scope, parts } = nameParts(ecosystem, name);
  // A language's own word in a name (`file-js`, `python-utils`, Go's `client-go`) is the ecosystem's vocabulary, said by
  // every text of it: left out, so that the rest of the name must be named (a name of nothing else names nothing).
  const words = [...(scope ? [scope] : []), ...parts].filter((word) => !LANGUAGE_WORDS.has(word));
  // A Go module is known by its last path element; where several modules share it (`uuid`, `jwt`), by owner too.
  if (ecosystem === 'go' && withOwner) {
    const path = name.toLowerCase().split('/').filter((part) => part && !/^v\d+$/.test(part));
    if (path.length >= 3) words.unshift(path.at(-2)!);
  }
  return [...new Set(indexTerms(words.join(' ')))];
}

/**
 * Each tool's mentions on a 0..1 scale within its ecosystem: log(1 + lift) / log(1 + the ecosystem's largest lift), where
 * lift = max(0, own − other · (N_e − 1) / N_not_e), own = the other tools of its ecosystem whose text holds every term of
 * its name, other = the texts of other ecosystems that do. `hits` gives a term's postings (documents ascending).
 */
export function mentionShare(
  tools: ReadonlyArray<{ ecosystem: Ecosystem; name: string }>, ecosystemOf: Uint8Array, hits: (term: string) => TermHits | undefined,
): Float32Array {
  const n = tools.length;
  const sizes = ECOSYSTEMS.map((_, e) => ecosystemOf.reduce((sum, at) => sum + (at === e ? 1 : 0), 0));
  const lastElement = new Map<string, number>();
  tools.forEach(({ ecosystem, name }) => {
    if (ecosystem !== 'go') return;
    const key = nameParts(ecosystem, name).parts.join('-');
    lastElement.set(key, (lastElement.get(key) ?? 0) + 1);
  });
  const holds = (list: TermHits | undefined, doc: number): boolean => {
    if (!list) return false;
    let lo = 0;
    let hi = list.docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = list.docs[mid]!;
      if (at === doc) return (list.fields[mid]! & TEXT_FIELDS) !== 0;
      if (at < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  };
  // Counts per ecosystem of the texts that hold all the terms, memoised by term set (many tools share one).
  const memo = new Map<string, Int32Array | null>();
  const countsOf = (terms: string[], e: number): Int32Array | null => {
    const key = `${e} ${terms.join(' ')}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const lists = terms.map(hits);
    let counts: Int32Array | null = null;
    if (lists.length > 0 && lists.every(Boolean)) {
      const sorted = (lists as TermHits[]).map((list) => ({ list })).sort((a, b) => a.list.docs.length - b.list.docs.length);
      const [rarest, ...rest] = sorted;
      counts = new Int32Array(ECOSYSTEMS.length);
      const { docs, fields } = rarest!.list;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        if (doc >= n || (fields[i]! & TEXT_FIELDS) === 0) continue;
        if (rest.every(({ list }) => holds(list, doc))) counts[ecosystemOf[doc]!]!++;
      }
    }
    memo.set(key, counts);
    return counts;
  };
  const lift = new Float64Array(n);
  const most = new Float64Array(ECOSYSTEMS.length);
  tools.forEach(({ ecosystem, name }, doc) => {
    const e = ecosystemOf[doc]!;
    const shared = ecosystem === 'go' && (lastElement.get(nameParts(ecosystem, name).parts.join('-')) ?? 0) > 1;
    const terms = mentionTerms(ecosystem, name, shared);
    const counts = countsOf(terms, e);
    if (!counts) return;
    // The tool's own text naming it is no mention.
    const own = counts[e]! - (terms.every((term) => holds(hits(term), doc)) ? 1 : 0);
    let other = 0;
    counts.forEach((count, at) => (other += at === e ? 0 : count));
    const elsewhere = n - sizes[e]!;
    const value = Math.max(0, own - (elsewhere > 0 ? (other * (sizes[e]! - 1)) / elsewhere : 0));
    lift[doc] = value;
    if (value > most[e]!) most[e] = value;
  });
  return Float32Array.from(lift, (value, doc) => (most[ecosystemOf[doc]!]! > 0 ? Math.log1p(value) / Math.log1p(most[ecosystemOf[doc]!]!) : 0));
}
