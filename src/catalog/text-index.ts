// Compact in-memory inverted index of the catalog's text: BM25 per field, summed with field weights, held in typed
// arrays (term → doc ids + precomputed impact). Knows nothing of tools or ranking; search-index.ts builds it.
// Why not a general search library: at 70,000 tools MiniSearch took ~10 s to build, ~60 MB of JSON to cache and
// several ms per query; postings with precomputed impacts build in ~2 s, load from a binary cache in milliseconds,
// and score a query by touching only the postings of its terms.
import { stemmer as porterStem } from 'stemmer';
import { tokenize } from './query.ts';

export const FIELDS = ['name', 'keywords', 'description', 'tags', 'readme'] as const;
export type Field = (typeof FIELDS)[number];
export type FieldTexts = Record<Field, string>;

/** Field weights of the full-text score (tuned on bench/search-tuning.tsv). */
export const FIELD_WEIGHTS: Record<Field, number> = { name: 2.5, keywords: 1.5, description: 1.5, tags: 1.0, readme: 0.5 };
/** Length normalisation per field: names are short and a long name is not a worse match. */
const FIELD_B: Record<Field, number> = { name: 0.3, keywords: 0.5, description: 0.75, tags: 0.3, readme: 0.75 };
const K1 = 1.2;

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
  impacts: Float32Array;
}

export interface TermHits {
  docs: Int32Array;
  impacts: Float32Array;
}

export class TextIndex {
  /** Terms are kept sorted and found by binary search: no map of 300,000 strings to build on every warm start. */
  private constructor(
    readonly docCount: number,
    private readonly terms: string[],
    private readonly offsets: Int32Array,
    private readonly docs: Int32Array,
    private readonly impacts: Float32Array,
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
    // Pass 1: every field's terms as ids, and field lengths.
    const fieldTerms: Int32Array[][] = texts.map((text) => FIELDS.map((field) => Int32Array.from(indexTerms(text[field]), termId)));
    const avg = FIELDS.map((_, f) => fieldTerms.reduce((sum, doc) => sum + doc[f]!.length, 0) / Math.max(1, texts.length) || 1);
    // Pass 2: per document, each term's weighted BM25 term-frequency part; idf is applied once df is known.
    let pairTerm: number[] = [];
    let pairDoc: number[] = [];
    let pairValue: number[] = [];
    const df = new Int32Array(terms.length);
    fieldTerms.forEach((fields, doc) => {
      const contribution = new Map<number, number>();
      fields.forEach((ids, f) => {
        if (ids.length === 0) return;
        const counts = new Map<number, number>();
        for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
        const field = FIELDS[f]!;
        const norm = K1 * (1 - FIELD_B[field] + FIELD_B[field] * (ids.length / avg[f]!));
        for (const [id, tf] of counts) {
          contribution.set(id, (contribution.get(id) ?? 0) + FIELD_WEIGHTS[field] * ((tf * (K1 + 1)) / (tf + norm)));
        }
      });
      for (const [id, value] of contribution) {
        pairTerm.push(id);
        pairDoc.push(doc);
        pairValue.push(value);
        df[id]! += 1;
      }
    });
    // Terms in sorted order (binary search at query time), then a counting sort of the (term, doc) pairs into
    // per-term postings lists.
    const order = terms.map((_, id) => id).sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
    const rank = new Int32Array(terms.length);
    order.forEach((id, position) => (rank[id] = position));
    const offsets = new Int32Array(terms.length + 1);
    for (let position = 0; position < order.length; position++) offsets[position + 1] = offsets[position]! + df[order[position]!]!;
    const cursor = Int32Array.from(terms, (_, id) => offsets[rank[id]!]!);
    const docs = new Int32Array(pairDoc.length);
    const impacts = new Float32Array(pairDoc.length);
    const n = texts.length;
    for (let i = 0; i < pairTerm.length; i++) {
      const id = pairTerm[i]!;
      const at = cursor[id]!++;
      const idf = Math.log(1 + (n - df[id]! + 0.5) / (df[id]! + 0.5));
      docs[at] = pairDoc[i]!;
      impacts[at] = idf * pairValue[i]!;
    }
    pairTerm = pairDoc = pairValue = [];
    return new TextIndex(n, order.map((id) => terms[id]!), offsets, docs, impacts);
  }

  static fromSerialized(data: SerializedTextIndex): TextIndex {
    return new TextIndex(data.docCount, data.terms, data.offsets, data.docs, data.impacts);
  }

  serialize(): SerializedTextIndex {
    return { docCount: this.docCount, terms: this.terms, offsets: this.offsets, docs: this.docs, impacts: this.impacts };
  }

  /** Postings of one (already stemmed) term, or undefined when no document has it. */
  hits(term: string): TermHits | undefined {
    const id = this.termId(term);
    if (id === undefined) return undefined;
    const from = this.offsets[id]!;
    const to = this.offsets[id + 1]!;
    return { docs: this.docs.subarray(from, to), impacts: this.impacts.subarray(from, to) };
  }

  /** How many documents contain the term (0 when none). */
  documentFrequency(term: string): number {
    const id = this.termId(term);
    return id === undefined ? 0 : this.offsets[id + 1]! - this.offsets[id]!;
  }
}
