// Compact in-memory inverted index of the catalog's text, held in typed arrays: term → the docs that have it and, per
// posting, which fields have it (a bit per field). Knows nothing of tools or ranking; search-index.ts builds it.
// Why not a general search library: at 70,000 tools MiniSearch took ~10 s to build, ~60 MB of JSON to cache and
// several ms per query; these postings build in ~2 s, load from a binary cache in milliseconds, and score a query by
// touching only the postings of its terms. (Until round 5 each posting held a BM25 impact; no ranking feature had read
// it since the relative BM25 score was removed, so the field bits took its place: 1 byte a posting instead of 4.)
import { stemmer as porterStem } from 'stemmer';
import { tokenize } from './query.ts';

export const FIELDS = ['name', 'keywords', 'description', 'tags', 'readme'] as const;
export type Field = (typeof FIELDS)[number];
export type FieldTexts = Record<Field, string>;

/** The bit of each field in a posting's field mask. */
export const FIELD_BIT: Record<Field, number> = Object.fromEntries(FIELDS.map((field, i) => [field, 1 << i])) as Record<Field, number>;

/** Porter stemming: "validation", "validate" and "validator" become "valid"; tokens with digits stay as they are. */
export function stem(term: string): string {
  return /^[a-z]+$/.test(term) && term.length > 3 ? porterStem(term) : term;
}

const stemMemo = new Map<string, string>();
/** Tokens of a text as index terms (stemmed; one-letter tokens without digits dropped). */
export function indexTerms(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    if (token.length < 2 && !/\d/.test(token)) continue;
    let stemmed = stemMemo.get(token);
    if (stemmed === undefined) {
      stemmed = stem(token);
      if (stemMemo.size < 500_000) stemMemo.set(token, stemmed);
    }
    out.push(stemmed);
  }
  return out;
}

export interface SerializedTextIndex {
  docCount: number;
  terms: string[];
  offsets: Int32Array;
  docs: Int32Array;
  /** Per posting, the fields (FIELD_BIT) of the document that have the term. */
  fields: Uint8Array;
}

export interface TermHits {
  /** Documents that have the term, ascending. */
  docs: Int32Array;
  fields: Uint8Array;
}

export class TextIndex {
  /** Terms are kept sorted and found by binary search: no map of 300,000 strings to build on every warm start. */
  private constructor(
    readonly docCount: number,
    private readonly terms: string[],
    private readonly offsets: Int32Array,
    private readonly docs: Int32Array,
    private readonly fields: Uint8Array,
  ) {}

  private termId(term: string): number | undefined {
    let lo = 0;
    let hi = this.terms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.terms[mid]!;
      if (at === term) return mid;
      if (at < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  static build(texts: FieldTexts[]): TextIndex {
    const vocabulary = new Map<string, number>();
    const terms: string[] = [];
    const termId = (term: string) => {
      let id = vocabulary.get(term);
      if (id === undefined) {
        id = terms.length;
        vocabulary.set(term, id);
        terms.push(term);
      }
      return id;
    };
    // Pass 1: per document, each term's field mask, as (term, doc, mask) triples in document order.
    let pairTerm: number[] = [];
    let pairDoc: number[] = [];
    let pairMask: number[] = [];
    const df: number[] = [];
    texts.forEach((text, doc) => {
      const masks = new Map<number, number>();
      FIELDS.forEach((field) => {
        for (const term of indexTerms(text[field])) {
          const id = termId(term);
          masks.set(id, (masks.get(id) ?? 0) | FIELD_BIT[field]);
        }
      });
      for (const [id, mask] of masks) {
        pairTerm.push(id);
        pairDoc.push(doc);
        pairMask.push(mask);
        df[id] = (df[id] ?? 0) + 1;
      }
    });
    // Terms in sorted order (binary search at query time), then a counting sort of the (term, doc) pairs into
    // per-term postings lists (documents stay ascending within each list).
    const order = terms.map((_, id) => id).sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
    const rank = new Int32Array(terms.length);
    order.forEach((id, position) => (rank[id] = position));
    const offsets = new Int32Array(terms.length + 1);
    for (let position = 0; position < order.length; position++) offsets[position + 1] = offsets[position]! + df[order[position]!]!;
    const cursor = Int32Array.from(terms, (_, id) => offsets[rank[id]!]!);
    const docs = new Int32Array(pairDoc.length);
    const fields = new Uint8Array(pairDoc.length);
    for (let i = 0; i < pairTerm.length; i++) {
      const at = cursor[pairTerm[i]!]!++;
      docs[at] = pairDoc[i]!;
      fields[at] = pairMask[i]!;
    }
    pairTerm = pairDoc = pairMask = [];
    return new TextIndex(texts.length, order.map((id) => terms[id]!), offsets, docs, fields);
  }

  static fromSerialized(data: SerializedTextIndex): TextIndex {
    return new TextIndex(data.docCount, data.terms, data.offsets, data.docs, data.fields);
  }

  serialize(): SerializedTextIndex {
    return { docCount: this.docCount, terms: this.terms, offsets: this.offsets, docs: this.docs, fields: this.fields };
  }

  /** Postings of one (already stemmed) term, or undefined when no document has it. */
  hits(term: string): TermHits | undefined {
    const id = this.termId(term);
    if (id === undefined) return undefined;
    const from = this.offsets[id]!;
    const to = this.offsets[id + 1]!;
    return { docs: this.docs.subarray(from, to), fields: this.fields.subarray(from, to) };
  }

  /** The fields of one document that have the term (0: none), by binary search in its postings. */
  fieldsOf(hits: TermHits, doc: number): number {
    const { docs } = hits;
    let lo = 0;
    let hi = docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = docs[mid]!;
      if (at === doc) return hits.fields[mid]!;
      if (at < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** How many documents contain the term (0 when none). */
  documentFrequency(term: string): number {
    const id = this.termId(term);
    return id === undefined ? 0 : this.offsets[id + 1]! - this.offsets[id]!;
  }
}
