// The lexical half of docs ranking: a per-package in-memory BM25F index (title/symbol, heading trail, body) over
// stemmed, code-aware terms, with each passage's term sequence kept for phrase and coverage signals. Pure; no I/O.
import { stemmer } from 'stemmer';

// English stop words and question filler: words that say nothing about which passage is meant.
const STOP = new Set(`a an and are as at be by can could do does for from had has have how i if in into is it its me my of on
or our should so than that the their them then there these this those to use used using was we what when where which who why
will with would you your want need way possible please show tell about example examples library package module crate gem docs
documentation get gets got let lets make`.split(/\s+/));

/** Analysis and field settings; exported so the bench's tuning runs can vary them (the tuning set only). */
export const LEXICAL = { verbWeight: 0.5, stem: true, porter: false, wholeIdentifiers: true, title: 1.6, trail: 0.5, body: 1, titleNorm: 0.3, bodyNorm: 0.75, k1: 2 };

// Verbs a question opens with that name an intent more than a topic ("add a flag", "check that …"): they count less.
const GENERIC_VERBS = new Set(['add', 'get', 'set', 'create', 'run', 'check', 'find', 'give', 'read', 'send', 'define',
  'return', 'put', 'take', 'allow', 'enable', 'turn', 'write', 'change', 'keep', 'call', 'pass', 'print', 'show', 'start']);

const WORD = /[A-Za-z0-9_$]+/g;
const pluralStems = new Map<string, string>();
const porterStems = new Map<string, string>();
const stem = (word: string) => {
  if (!LEXICAL.stem) return word;
  const stems = LEXICAL.porter ? porterStems : pluralStems;
  let found = stems.get(word);
  if (found === undefined) {
    found = word.length > 3 && /^[a-z]+$/.test(word) ? (LEXICAL.porter ? stemmer(word) : pluralStem(word)) : word;
    if (stems.size > 200_000) stems.clear();
    stems.set(word, found);
  }
  return found;
};

/**
 * Harman's S-stemmer: plurals only. Porter's stemmer conflates words API docs keep apart (optional/option/options,
 * required/require, running/run), so a question about `.optional()` matched every passage about options.
 */
export function pluralStem(word: string): string {
  if (word.endsWith('ies') && !/[ae]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && !/[aeo]es$/.test(word)) return word.slice(0, -1);
  if (word.endsWith('s') && !/[us]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Terms of a text: words and the parts of code identifiers (`requiredOption` → required, option, requiredoption), stemmed. */
export function analyze(text: string, wholeIdentifiers = LEXICAL.wholeIdentifiers): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const raw = match[0];
    if (/^[a-z]+$/.test(raw)) { // most words: no identifier to split
      if ((raw.length > 1) && !STOP.has(raw)) terms.push(stem(raw));
      continue;
    }
    const parts = raw.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(/[\s_$]+/).filter(Boolean);
    const whole = raw.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
    if (wholeIdentifiers && parts.length > 1 && whole.length > 2) terms.push(whole);
    for (const part of parts) {
      const lower = part.toLowerCase();
      if (lower.length < 2 && !/\d/.test(lower)) continue;
      if (STOP.has(lower)) continue;
      terms.push(stem(lower));
    }
  }
  return terms;
}

export interface LexicalDoc { title: string; trail: string; body: string; /** The symbol's own name or the heading. */ name: string }

const FIELDS = ['title', 'trail', 'body'] as const;
type Field = typeof FIELDS[number];

export interface QueryTerm { term: string; id: number; idf: number; /** 1 for a word of the question; less for a related one. */ weight: number }

export interface TermMatch {
  bm25: number; bodyCoverage: number; proximity: number; name: number;
  /**
   * The share of the question's information the body holds in words its title and symbol do not say: how much of the
   * question the passage's *text* explains, not its name (an item named like the question's words scores 0 here unless
   * its prose says more of it).
   */
  textCoverage: number;
}

/** A run of id lists packed as one buffer and where each list starts: what a thread hands over (transferable, no copy). */
export interface PackedLists { flat: Int32Array; offsets: Int32Array }

/**
 * A built index as plain data (LexicalIndex#data), so it can be built on another thread (src/docs/index-parts.ts) and
 * taken back without analyzing any text again. Term ids are positions in `terms`, so the index read back is the same.
 */
export interface LexicalData {
  size: number; terms: string[]; df: Int32Array; averages: Record<Field, number>;
  fields: Record<Field, PackedLists>; postings: PackedLists; names: PackedLists;
}

function pack(lists: ArrayLike<number>[]): PackedLists {
  const offsets = new Int32Array(lists.length + 1);
  lists.forEach((list, i) => { offsets[i + 1] = offsets[i]! + list.length; });
  const flat = new Int32Array(offsets[lists.length]!);
  lists.forEach((list, i) => flat.set(list, offsets[i]!));
  return { flat, offsets };
}

const unpack = ({ flat, offsets }: PackedLists): Int32Array[] =>
  Array.from({ length: offsets.length - 1 }, (_, i) => flat.subarray(offsets[i]!, offsets[i + 1]!));

/** One package's passages, indexed once and queried many times. */
export class LexicalIndex {
  private readonly vocabulary = new Map<string, number>();
  private readonly df: number[] | Int32Array = [];
  private readonly fields: Record<Field, Int32Array[]> = { title: [], trail: [], body: [] };
  private readonly averages: Record<Field, number> = { title: 1, trail: 1, body: 1 };
  /** Passages holding each term (any field), for candidate generation. */
  private readonly postings: Array<number[] | Int32Array> = [];
  /** Each passage's name terms (`random_range` → random, range; `Nil` → nil), for the name-match signal. */
  private readonly names: Int32Array[] = [];
  readonly size: number;

  /** Indexes `docs`, or takes an index built elsewhere (`data()`, another thread's) as it is. */
  constructor(source: LexicalDoc[] | LexicalData) {
    if (!Array.isArray(source)) {
      this.size = source.size;
      source.terms.forEach((term, id) => this.vocabulary.set(term, id));
      this.df = source.df;
      for (const field of FIELDS) this.fields[field] = unpack(source.fields[field]);
      this.averages = { ...source.averages };
      this.postings = unpack(source.postings);
      this.names = unpack(source.names);
      return;
    }
    const docs = source;
    const df = this.df as number[], postings = this.postings as number[][];
    this.size = docs.length;
    docs.forEach((doc, i) => {
      const seen = new Set<number>();
      for (const field of FIELDS) {
        const ids = analyze(doc[field]).map((term) => this.termId(term));
        this.fields[field].push(Int32Array.from(ids));
        for (const id of ids) if (!seen.has(id)) { seen.add(id); df[id] = (df[id] ?? 0) + 1; postings[id]!.push(i); }
      }
      this.names.push(Int32Array.from(new Set(analyze(doc.name, false).map((term) => this.termId(term)))));
    });
    for (const field of FIELDS) {
      const lengths = this.fields[field].map((t) => t.length);
      this.averages[field] = Math.max(1, lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length));
    }
  }

  /** The index as plain data, its buffers listed for a thread to transfer (see LexicalData). */
  data(): { data: LexicalData; transfer: ArrayBuffer[] } {
    const fields = { title: pack(this.fields.title), trail: pack(this.fields.trail), body: pack(this.fields.body) };
    const data: LexicalData = {
      size: this.size, terms: [...this.vocabulary.keys()], df: Int32Array.from(this.df), averages: { ...this.averages },
      fields, postings: pack(this.postings), names: pack(this.names),
    };
    const lists = [fields.title, fields.trail, fields.body, data.postings, data.names];
    return { data, transfer: [data.df.buffer, ...lists.flatMap((l) => [l.flat.buffer, l.offsets.buffer])] as ArrayBuffer[] };
  }

  private termId(term: string): number {
    let id = this.vocabulary.get(term);
    if (id === undefined) {
      const df = this.df as number[];
      id = df.length;
      this.vocabulary.set(term, id);
      df.push(0);
      (this.postings as number[][]).push([]);
    }
    return id;
  }

  /** BM25's idf, for a term the package may not contain (then it is the rarest possible). */
  idf(term: string): number {
    const id = this.vocabulary.get(term);
    const df = id === undefined ? 0 : this.df[id]!;
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** Distinct query terms the package knows, with their idf (and weight 1: words the question says). */
  queryTerms(question: string): QueryTerm[] {
    const out = new Map<string, QueryTerm>();
    for (const term of analyze(question)) {
      const id = this.vocabulary.get(term);
      if (id !== undefined && !out.has(term)) out.set(term, { term, id, idf: this.idf(term) * (GENERIC_VERBS.has(term) ? LEXICAL.verbWeight : 1), weight: 1 });
    }
    return [...out.values()];
  }

  /** A related term (from the semantic expansion) as a query term of lower weight, if the package has it. */
  relatedTerm(term: string, weight: number): QueryTerm | undefined {
    const id = this.vocabulary.get(term);
    return id === undefined ? undefined : { term, id, idf: this.idf(term), weight };
  }

  /** Terms of names and titles (where API and section names live): what the semantic expansion may map a question word to. */
  nameVocabulary(): string[] {
    const ids = new Set<number>();
    for (const names of this.names) for (const id of names) ids.add(id);
    for (const title of this.fields.title) for (const id of title) ids.add(id);
    const terms: string[] = [];
    for (const [term, id] of this.vocabulary) if (ids.has(id) && /^[a-z][a-z0-9]{2,}$/.test(term)) terms.push(term);
    return terms;
  }

  /** Passages holding at least one of the terms. */
  candidates(terms: Array<{ id: number }>): number[] {
    const found = new Set<number>();
    for (const { id } of terms) for (const doc of this.postings[id] ?? []) found.add(doc);
    return [...found];
  }

  /**
   * BM25F over the three fields; the share of the question's information (idf) the body holds (the title's share was a
   * ranking feature until round 10, removed: it did not pay on held-out sets, docs/docs-search.md); and
   * adjacent question terms found adjacent (a phrase, `random_range` for "random … range").
   */
  match(doc: number, terms: QueryTerm[], totalIdf: number): TermMatch {
    let bm25 = 0, body = 0, proximity = 0, text = 0;
    // Counted per query term by a scan of each field (a handful of terms): no per-passage map of every token, which
    // made this the largest main-thread cost (and garbage) of docs answers under load.
    const fieldTokens = FIELDS.map((field) => this.fields[field][doc]!);
    const WEIGHT: Record<Field, number> = { title: LEXICAL.title, trail: LEXICAL.trail, body: LEXICAL.body };
    const LENGTH_NORM: Record<Field, number> = { title: LEXICAL.titleNorm, trail: 0.3, body: LEXICAL.bodyNorm };
    const K1 = LEXICAL.k1;
    // A word and its related terms count once for coverage: the best of them.
    const bodyBest = new Map<string, number>();
    const textBest = new Map<string, number>();
    const titleTokens = fieldTokens[0]!;
    for (const { id, idf, weight, term } of terms) {
      let weighted = 0;
      const group = weight === 1 ? term : `~${id}`;
      for (let f = 0; f < FIELDS.length; f++) {
        const field = FIELDS[f]!, tokens = fieldTokens[f]!;
        let n = 0;
        for (let i = 0; i < tokens.length; i++) if (tokens[i] === id) n++;
        if (!n) continue;
        weighted += WEIGHT[field] * n / (1 - LENGTH_NORM[field] + LENGTH_NORM[field] * tokens.length / this.averages[field]);
        if (field === 'body') {
          bodyBest.set(group, Math.max(bodyBest.get(group) ?? 0, idf * weight));
          if (!titleTokens.includes(id)) textBest.set(group, Math.max(textBest.get(group) ?? 0, idf * weight));
        }
      }
      if (weighted) bm25 += weight * idf * (weighted * (K1 + 1)) / (weighted + K1);
    }
    for (const v of bodyBest.values()) body += v;
    for (const v of textBest.values()) text += v;
    if (terms.filter((t) => t.weight === 1).length > 1) {
      const wanted = new Set(terms.filter((t) => t.weight === 1).map((t) => t.id));
      for (const field of ['title', 'body'] as const) {
        const tokens = this.fields[field][doc]!;
        const pairs = new Set<string>();
        for (let i = 1; i < tokens.length; i++) {
          const a = tokens[i - 1]!, b = tokens[i]!;
          if (a !== b && wanted.has(a) && wanted.has(b)) pairs.add(a < b ? `${a}:${b}` : `${b}:${a}`);
        }
        proximity = Math.max(proximity, pairs.size / (wanted.size - 1));
      }
    }
    const total = totalIdf || 1;
    // How much of the passage's name the question says, times how much of the question that is: `assert.Nil` for
    // "check that a value is nil", `random_range` for "random integer in a range".
    let name = 0;
    const nameTerms = this.names[doc]!;
    if (nameTerms.length) {
      let named = 0, nameIdf = 0;
      for (const id of nameTerms) {
        const idf = Math.log(1 + (this.size - this.df[id]! + 0.5) / (this.df[id]! + 0.5));
        nameIdf += idf;
        // The last query term with this id (as a map built from the terms would hold).
        for (let t = terms.length - 1; t >= 0; t--) if (terms[t]!.id === id) { named += terms[t]!.idf * terms[t]!.weight; break; }
      }
      name = nameIdf ? Math.min(1, named / nameIdf) * (named / total) : 0;
    }
    return { bm25, bodyCoverage: body / total, proximity: Math.min(1, proximity), name, textCoverage: text / total };
  }

  /** Body term ids, for near-duplicate checks. */
  bodyTerms(doc: number): Int32Array { return this.fields.body[doc]!; }
}
