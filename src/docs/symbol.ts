// Exact symbol lookup: `tokio::time::timeout`, `lodash.debounce`, `gorm.DB.Where`, `requests.Session.mount` against one
// package's indexed API. A hit answers the item's signature, documentation, examples and where it is defined; a miss
// answers the closest names (edit distance on the name, path-aware on its parents), never nothing. Pure: passages in.
import { namesUsed } from './centrality.ts';
import { passageParts } from './passage-parts.ts';
import type { IndexedPassage } from './rank.ts';
import { flagsOfPassage, type PassageFlag } from './untrusted.ts';

export const MAX_SYMBOL = 300;
const SUGGESTIONS = 5;
const OTHER_EXAMPLES = 3;

export interface SymbolExample { language: string; code: string; url: string }

export interface SymbolItem {
  /** The item's path as the package's index holds it (the asked name may have left out the package or a module). */
  symbol: string;
  /** Its declaration, as the package's sources or type declarations write it. */
  signature: string | null;
  /** Its documentation (Markdown, code blocks moved to `examples`). */
  documentation: string;
  /** Code from its own documentation first, then from the package's guides and README that use it. */
  examples: SymbolExample[];
  /** Where it is defined: the file inside the published artifact, and a URL a person can open at that line. */
  source: string;
  url: string;
  deprecated?: boolean;
  internal?: boolean;
  flags?: PassageFlag[];
}

export interface SymbolSuggestion { symbol: string; url: string; score: number }

export interface SymbolLookup {
  found: boolean;
  /** True when the asked path is the item's own (separators and a leading package name aside), not only its tail. */
  exact: boolean;
  item?: SymbolItem;
  /** On a miss, the closest names; on a hit, other items the name could mean. */
  suggestions: SymbolSuggestion[];
}

/** `tokio::time::timeout`, `Session#mount`, `@scope/pkg.fn()`, `anyhow::bail!` → its segments, as written. */
export function symbolSegments(symbol: string): string[] {
  return symbol.trim().replace(/\(\s*\)$/, '').split(/::|[.#/\\]/).map((s) => s.replace(/^@/, '').trim()).filter(Boolean);
}

const fold = (segment: string) => segment.toLowerCase().replace(/!$/, '');

/** Optimal string alignment distance (Levenshtein with adjacent transpositions: `debuonce` is one edit from `debounce`). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length || !b.length) return Math.max(a.length, b.length);
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** 0–1: how alike two names are (case folded): edit distance over length, with credit for one holding the other. */
function nameSimilarity(asked: string, name: string): number {
  const a = fold(asked), b = fold(name);
  if (a === b) return 1;
  const edits = 1 - editDistance(a, b) / Math.max(a.length, b.length);
  const contained = a.length >= 3 && (b.includes(a) || a.includes(b)) ? 0.75 * Math.min(a.length, b.length) / Math.max(a.length, b.length) + 0.2 : 0;
  return Math.max(edits, contained);
}

/** 0–1: how much of the asked parent path the item's parents hold, in order, each segment fuzzily (`Sesion` ≈ `Session`). */
function parentSimilarity(asked: string[], parents: string[]): number {
  if (!asked.length) return 1;
  let at = 0, total = 0;
  for (const segment of asked) {
    let best = 0, bestAt = -1;
    for (let i = at; i < parents.length; i++) {
      const similarity = nameSimilarity(segment, parents[i]!);
      if (similarity > best) { best = similarity; bestAt = i; }
    }
    if (best >= 0.6) { total += best; at = bestAt + 1; }
  }
  return total / asked.length;
}

interface Candidate { symbol: string; segments: string[]; passages: IndexedPassage[] }

// Per package index (its passages array lives as long as the index): the symbols, grouped once.
const candidateCache = new WeakMap<IndexedPassage[], Candidate[]>();

function candidatesOf(passages: IndexedPassage[]): Candidate[] {
  const cached = candidateCache.get(passages);
  if (cached) return cached;
  const bySymbol = new Map<string, Candidate>();
  for (const passage of passages) {
    if (!passage.symbol) continue;
    let candidate = bySymbol.get(passage.symbol);
    if (!candidate) bySymbol.set(passage.symbol, candidate = { symbol: passage.symbol, segments: symbolSegments(passage.symbol), passages: [] });
    candidate.passages.push(passage);
  }
  const candidates = [...bySymbol.values()];
  candidateCache.set(passages, candidates);
  return candidates;
}

/**
 * The asked segments, and the same without a leading package name (`lodash.debounce`, `gorm.io/gorm.DB.Where`) or the
 * short alias code imports it as (`z.safeParse`, `_.debounce`, `np.array`: up to 3 characters, no segment of the API).
 */
function askedVariants(asked: string[], packageNames: string[], known: Set<string>): string[][] {
  const names = new Set(packageNames.flatMap(symbolSegments).map(fold));
  const variants = [asked];
  for (let k = 1; k < asked.length && names.has(fold(asked[k - 1]!)); k++) variants.push(asked.slice(k));
  if (variants.length === 1 && asked.length > 1 && asked[0]!.length <= 3 && !known.has(fold(asked[0]!))) variants.push(asked.slice(1));
  return variants;
}

const endsWith = (segments: string[], tail: string[], caseSensitive: boolean) =>
  tail.length <= segments.length && tail.every((segment, i) => {
    const own = segments[segments.length - tail.length + i]!;
    return caseSensitive ? own.replace(/!$/, '') === segment.replace(/!$/, '') : fold(own) === fold(segment);
  });

const prefer = (a: Candidate, b: Candidate) => {
  const first = (c: Candidate) => c.passages[0]!;
  return Number(first(a).internal) - Number(first(b).internal) || Number(Boolean(first(a).deprecated)) - Number(Boolean(first(b).deprecated))
    || a.segments.length - b.segments.length || first(b).importance - first(a).importance || a.symbol.localeCompare(b.symbol);
};

/** The item's parts, read from its passages (chunks of one item repeat its signature) and the package's other passages. */
function describe(candidate: Candidate, all: IndexedPassage[]): SymbolItem {
  const first = candidate.passages[0]!;
  let signature: string | null = null;
  const documentation: string[] = [];
  const examples: SymbolExample[] = [];
  candidate.passages.forEach((passage, i) => {
    const parts = passageParts(passage.content);
    const opensWithCode = /^\s*(```|~~~)/.test(passage.content);
    const code = [...parts.code];
    if (opensWithCode) {
      const declared = code.shift()!;
      if (i === 0) signature = declared.code;
    }
    if (parts.withoutCode) documentation.push(parts.withoutCode);
    for (const block of code) examples.push({ language: block.language, code: block.code, url: passage.url });
  });
  // Guides, README and other items that call it: where the package itself shows it in use.
  const name = candidate.segments[candidate.segments.length - 1]!.replace(/!$/, '');
  const own = new Set(candidate.passages);
  const users = all.filter((p) => !own.has(p) && p.content.includes(name) && namesUsed(p.content).has(name))
    .sort((a, b) => Number(Boolean(a.symbol)) - Number(Boolean(b.symbol)) || b.importance - a.importance);
  for (const passage of users) {
    if (examples.length >= candidate.passages.length + OTHER_EXAMPLES) break;
    const block = passageParts(passage.content).code.find((c) => namesUsed(c.code).has(name));
    if (block && !examples.some((e) => e.code === block.code)) examples.push({ language: block.language, code: block.code, url: passage.url });
  }
  const flags = [...new Set(candidate.passages.flatMap(flagsOfPassage))].sort();
  return {
    symbol: candidate.symbol, signature, documentation: documentation.join('\n\n'), examples, source: first.source, url: first.url,
    ...(candidate.passages.some((p) => p.deprecated) ? { deprecated: true } : {}),
    ...(first.internal ? { internal: true } : {}),
    ...(flags.length ? { flags } : {}),
  };
}

/** Closest names to `asked` among the candidates: the name weighs most, then how much of the asked path its parents hold. */
function closest(asked: string[], candidates: Candidate[], exclude: Set<string>, count: number): SymbolSuggestion[] {
  const last = asked[asked.length - 1]!;
  const parents = asked.slice(0, -1);
  return candidates.filter((c) => !exclude.has(c.symbol))
    .map((c) => {
      const score = 0.7 * nameSimilarity(last, c.segments[c.segments.length - 1]!) + 0.3 * parentSimilarity(parents, c.segments.slice(0, -1));
      return { candidate: c, score: score - (c.passages[0]!.internal ? 0.05 : 0) };
    })
    .sort((a, b) => b.score - a.score || prefer(a.candidate, b.candidate))
    .slice(0, count)
    .map(({ candidate, score }) => ({ symbol: candidate.symbol, url: candidate.passages[0]!.url, score: Math.round(Math.max(0, score) * 1000) / 1000 }));
}

/** Section titles as names, for a package without API items (a gem's README): a miss still answers the nearest sections. */
function sectionCandidates(passages: IndexedPassage[]): Candidate[] {
  const byTitle = new Map<string, Candidate>();
  for (const passage of passages) {
    const title = passage.title ?? passage.headings[passage.headings.length - 1];
    if (title && !byTitle.has(title)) byTitle.set(title, { symbol: title, segments: [title], passages: [passage] });
  }
  return [...byTitle.values()];
}

const segmentCache = new WeakMap<Candidate[], Set<string>>();
const knownSegments = (candidates: Candidate[]) => {
  let known = segmentCache.get(candidates);
  if (!known) segmentCache.set(candidates, known = new Set(candidates.flatMap((c) => c.segments.map(fold))));
  return known;
};

export function lookupSymbol(passages: IndexedPassage[], symbol: string, packageNames: string[]): SymbolLookup {
  const asked = symbolSegments(symbol);
  const candidates = candidatesOf(passages);
  if (!asked.length) return { found: false, exact: false, suggestions: [] };
  if (!candidates.length) return { found: false, exact: false, suggestions: closest(asked, sectionCandidates(passages), new Set(), SUGGESTIONS) };
  // The asked path as the item's own (a leading package name aside), then as the tail of an item's path; case as
  // written before case folded.
  const known = knownSegments(candidates);
  const variants = askedVariants(asked, packageNames, known);
  const names = new Set(packageNames.flatMap(symbolSegments).map(fold));
  for (const caseSensitive of [true, false]) {
    for (const variant of variants) {
      const tail = candidates.filter((c) => endsWith(c.segments, variant, caseSensitive));
      if (!tail.length) continue;
      const own = tail.filter((c) => c.segments.slice(0, c.segments.length - variant.length).every((segment) => names.has(fold(segment))));
      const [best, ...others] = [...(own.length ? own : tail)].sort(prefer);
      const alternatives = [...others, ...(own.length ? tail.filter((c) => !own.includes(c)) : [])].slice(0, SUGGESTIONS)
        .map((c) => ({ symbol: c.symbol, url: c.passages[0]!.url, score: 1 }));
      return { found: true, exact: own.length > 0, item: describe(best!, passages), suggestions: alternatives };
    }
  }
  const folded = foldedMember(variants, candidates, names, passages);
  if (folded) return folded;
  return { found: false, exact: false, suggestions: closest(asked, candidates, new Set(), SUGGESTIONS) };
}

/** Its owner's identifier for a member folded into the owner's passage (the extractor writes `owner.member`, lower case). */
const foldedId = (candidate: Candidate, member: string) => `${fold(candidate.segments[candidate.segments.length - 1]!)}.${fold(member)}`;

/**
 * A comment-less member (`Options.timeout`, an object's property) has no passage of its own: the extractor folds it into
 * its owner's passage and names it among that passage's identifiers. Asked by name, it is answered with the owner's item,
 * whose documentation opens by saying so and quoting the member's own declaration line. Never exact: the path asked is
 * not an item's own.
 */
function foldedMember(variants: string[][], candidates: Candidate[], names: Set<string>, passages: IndexedPassage[]): SymbolLookup | undefined {
  for (const variant of variants) {
    const member = variant[variant.length - 1]!;
    const owner = variant.slice(0, -1);
    const holders = candidates.filter((c) => c.passages.some((p) => p.identifiers.includes(foldedId(c, member)))
      && (!owner.length || endsWith(c.segments, owner, false)));
    if (!holders.length) continue;
    const own = owner.length ? holders.filter((c) => c.segments.slice(0, c.segments.length - owner.length).every((segment) => names.has(fold(segment)))) : holders;
    const [best, ...others] = [...(own.length ? own : holders)].sort(prefer);
    const item = describe(best!, passages);
    const line = memberLine(item.signature, member);
    const note = `\`${[...(owner.length ? [] : [best!.segments[best!.segments.length - 1]!]), ...variant].join('.')}\` has no documentation of its own: `
      + `it is a member of \`${best!.symbol}\`, folded into its passage${line ? ` (\`${line}\`)` : ''}.`;
    return {
      found: true, exact: false, item: { ...item, documentation: item.documentation ? `${note}\n\n${item.documentation}` : note },
      suggestions: [...others, ...(own.length ? holders.filter((c) => !own.includes(c)) : [])].slice(0, SUGGESTIONS)
        .map((c) => ({ symbol: c.symbol, url: c.passages[0]!.url, score: 1 })),
    };
  }
  return undefined;
}

/** The member's own line in its owner's folded signature (`  timeout?: number;`), trimmed; null when not there. */
function memberLine(signature: string | null, member: string): string | null {
  const name = fold(member).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\s*(?:(?:readonly|static|public|abstract|declare|get|set|async)\\s+)*["']?${name}["']?\\??\\s*[:(<]`, 'i');
  return signature?.split('\n').find((l) => pattern.test(l))?.trim().replace(/;$/, '') ?? null;
}
