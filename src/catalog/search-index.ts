// The catalog's in-memory search index: full text (text-index.ts) plus per-tool ranking facts (popularity percentile
// within its ecosystem, family head, exact names) and optional tool vectors, kept in step with the store.
// Why in memory: PGlite runs one query at a time, so SQL ranking queues under concurrency; the store stays the system of record.
import { familyHeads } from './families.ts';
import { namesakeShare } from './namesakes.ts';
import { CUE_SOURCES, parseQuery, type FrameworkOf, type ParsedQuery } from './query.ts';
import { blend, FAMILY_MARGIN, features, nameForms, WEIGHTS, type RankContext, type Signals } from './rank.ts';
import { FIELD_BIT, indexTerms, stem, TextIndex, type FieldTexts, type SerializedTextIndex, type TermHits } from './text-index.ts';
import { ToolTable, type SerializedTable, type ToolFacts } from './tool-table.ts';
import type { Ecosystem, SearchOptions, ToolRecord } from './types.ts';
import { ECOSYSTEMS } from './types.ts';

export { stem };

export interface RankedHit {
  tool: ToolRecord;
  score: number;
  /** The signals behind the score (only when search is asked to explain: benches and tests). */
  signals?: Signals;
}

/** Tool vectors: similarity of a query vector to one tool, and the nearest tools of the most used ones. */
export interface ToolVectors {
  all: {
    score(query: Float32Array, slug: string): number | undefined;
    /** Optional fast path (VectorIndex): rows looked up once per layout, then scored without a lookup by slug. */
    rowOf?(slug: string): number;
    scoreAt?(query: Float32Array, row: number): number;
    readonly layout?: number;
  };
  head: {
    search(query: Float32Array, k: number, filter?: (slug: string, row: number) => boolean): Array<{ id: string; score: number }>;
    /** Optional fast path (VectorIndex): a filtered scan maps each row to its tool by a table instead of by slug. */
    rowOf?(slug: string): number;
    readonly layout?: number;
    readonly size?: number;
  };
}

/** Share of each ecosystem (by popularity) whose vectors are scanned for meaning-only candidates. */
const HEAD_SHARE = 0.25;

/** Candidates kept from the full-text stage for the final blend (semantic signals, families); 120 and 400 tie on the tuning set. */
export const CANDIDATES = { value: 120 };
/**
 * Tools the semantic layer adds on its own (relevant by meaning, sharing no word with the query): `candidates` of them,
 * when full text finds fewer than `scanBelow` tools (or the query asks for peers); a scan of the head quarter's vectors
 * costs more than the rest of a query. Objects so that a fit can try other pools (scripts/fit-loso.ts FIT_POOL_VARIANTS).
 */
export const SEMANTIC_POOL = { candidates: 60, scanBelow: 150 };
/**
 * A framework cue from the catalog (CUE_SOURCES.derived): a tool of that name at least this popular within its
 * ecosystem (percentile), and at least CUE_MIN_TOOLS tools whose name, description, keywords or tags say the word, this
 * share of them (per tool of each ecosystem) in that ecosystem. Round 4's values, not refit (docs/search.md "Round 8").
 */
const CUE_MIN_POPULARITY = 0.8;
const CUE_MIN_TOOLS = 5;
const CUE_SHARE = 0.7;
/** Weight of the named tool's own words in a peer query ("alternative to moment": moment's description). */
const PEER_TEXT_WEIGHT = 0.5;
/** A term in more than this share of the catalog (and at least COMMON_TERM_MIN tools) is "common" (see search). */
const COMMON_TERM_SHARE = 0.08;
const COMMON_TERM_MIN = 1500;
/**
 * Indexed share of each README excerpt: all that the catalog holds (its opening sections, up to 1,200 characters).
 * Under the hand-set weights, past ~500 characters added postings and no hits; with weights fit on it, see docs/search.md.
 */
export const README_INDEX_CHARS = { value: 1200 };
/** Tools changed since the last full build are searched in a small second index; past this many, rebuild. */
export const DELTA_LIMIT = 2000;

export interface SerializedIndex {
  table: SerializedTable;
  text: SerializedTextIndex;
  /** Derived per-tool facts, saved so a warm start need not recompute them. */
  popularity?: Float32Array;
  heads?: Int32Array;
}

interface Segment {
  index: TextIndex;
  /** Global document of each segment document (undefined: the identity, for the main segment). */
  docs?: Int32Array;
  /** The reverse: segment document of each global one it holds. */
  local?: Map<number, number>;
}

/** The field groups whose coverage are features of their own (rank.ts): what the registry says, its keywords and tags, the README. */
const DESCRIBED_FIELDS = FIELD_BIT.name | FIELD_BIT.description;
const KEYWORD_FIELDS = FIELD_BIT.keywords | FIELD_BIT.tags;
const README_FIELDS = FIELD_BIT.readme;

export class CatalogSearchIndex {
  private readonly tools: ToolTable;
  private readonly bySlug = new Map<string, number>();
  private main: Segment;
  private delta: Segment | undefined;
  /** Documents of the main segment whose postings are outdated (the delta segment holds their new text). */
  private stale: Uint8Array = new Uint8Array(0);
  private changed = new Set<number>();
  private ecosystem: Uint8Array = new Uint8Array(0);
  private ecosystemSizes: number[] = [];
  private popularity: Float32Array = new Float32Array(0);
  private heads: Int32Array = new Int32Array(0);
  private namesakes: Float32Array = new Float32Array(0);
  private exact = new Map<string, number[]>();
  private cover: Float32Array = new Float32Array(0);
  private touched: Int32Array = new Int32Array(0);
  vectors: ToolVectors | undefined;

  private constructor(tools: ToolTable, main: TextIndex, derived?: { popularity?: Float32Array; heads?: Int32Array }) {
    this.tools = tools;
    this.main = { index: main };
    this.derive(derived);
  }

  static build(tools: ToolRecord[]): CatalogSearchIndex {
    return new CatalogSearchIndex(ToolTable.of(tools), TextIndex.build(tools.map(fieldTexts)));
  }

  static fromSerialized(serialized: SerializedIndex): CatalogSearchIndex {
    return new CatalogSearchIndex(ToolTable.fromSerialized(serialized.table), TextIndex.fromSerialized(serialized.text), serialized);
  }

  /** The main segment and its tools; only meaningful right after a full build (no pending changes). */
  serialize(): SerializedIndex {
    return { table: this.tools.serialize(), text: this.main.index.serialize(), popularity: this.popularity, heads: this.heads };
  }

  get size(): number {
    return this.tools.size;
  }

  get pendingChanges(): number {
    return this.changed.size;
  }

  get(slug: string): ToolRecord | undefined {
    const doc = this.bySlug.get(slug);
    return doc === undefined ? undefined : this.tools.record(doc);
  }

  /** True when the index holds this record already, as it would after upserting it. */
  holds(tool: ToolRecord): boolean {
    const doc = this.bySlug.get(tool.slug);
    return doc !== undefined && this.tools.holds(doc, tool);
  }

  /** The slug of the package that heads a tool's family (itself when it heads one or has none). */
  familyHead(slug: string): string | undefined {
    const doc = this.bySlug.get(slug);
    return doc === undefined ? undefined : this.tools.slug(this.heads[doc]!);
  }

  /** Every tool, parsed one at a time. */
  all(): Iterable<ToolRecord> {
    return this.tools.allRecords();
  }

  slugs(): string[] {
    return this.tools.slugs();
  }

  /** The most used quarter of each ecosystem: where tools that share no word with a query are looked for by meaning. */
  headSlugs(): Set<string> {
    const slugs = this.tools.slugs();
    return new Set(slugs.filter((_, doc) => this.popularity[doc]! >= 1 - HEAD_SHARE));
  }

  /** Adds or replaces tools (after an ingest batch): their text goes to the small delta segment, not a full rebuild. */
  upsert(tools: ToolRecord[]): void {
    for (const tool of tools) {
      const existing = this.bySlug.get(tool.slug);
      const doc = existing ?? this.tools.size;
      this.tools.set(doc, tool);
      this.changed.add(doc);
      if (existing === undefined) this.bySlug.set(tool.slug, doc);
    }
    const docs = Int32Array.from(this.changed);
    this.delta = { index: TextIndex.build([...docs].map((doc) => fieldTexts(this.tools.record(doc)))), docs, local: new Map(Array.from(docs, (doc, i) => [doc, i])) };
    this.derive();
  }

  /** Per-tool ranking facts, recomputed whenever the set of tools changes. */
  private derive(saved?: { popularity?: Float32Array; heads?: Int32Array }): void {
    this.nameTermCache?.clear();
    this.popularityTermCache = undefined;
    this.vectorRowCache = undefined;
    this.headRowCache = undefined;
    this.nameTableCache = undefined;
    const fits = (array?: { length: number }) => array?.length === this.tools.size;
    const n = this.tools.size;
    const slugs = this.tools.slugs();
    this.bySlug.clear();
    slugs.forEach((slug, doc) => this.bySlug.set(slug, doc));
    this.ecosystem = Uint8Array.from(slugs, (_, doc) => this.tools.ecosystemIndex(doc));
    this.ecosystemSizes = ECOSYSTEMS.map((_, e) => this.ecosystem.reduce((sum, at) => sum + (at === e ? 1 : 0), 0));
    const facts = saved && fits(saved.popularity) && fits(saved.heads) ? [] : Array.from(slugs, (_, doc) => this.tools.fact(doc));
    this.popularity = saved && fits(saved.popularity) ? saved.popularity! : popularityWithinEcosystem(facts);
    this.heads = saved && fits(saved.heads) ? saved.heads! : familyHeads(facts.map((tool, doc) => ({
      ecosystem: tool.ecosystem, name: tool.name, repository: tool.repository, popularity: this.popularity[doc]!,
    })));
    this.namesakes = namesakeShare(Array.from(slugs, (_, doc) => ({ ecosystem: ECOSYSTEMS[this.ecosystem[doc]!]!, name: this.tools.name(doc) })));
    this.exact = new Map();
    this.cueMemo.clear();
    slugs.forEach((_, doc) => {
      for (const form of nameForms(this.tools.name(doc))) {
        const list = this.exact.get(form);
        if (list) list.push(doc);
        else this.exact.set(form, [doc]);
      }
    });
    const stale = new Uint8Array(n);
    for (const doc of this.changed) if (doc < this.main.index.docCount) stale[doc] = 1;
    this.stale = stale;
    if (this.cover.length < n) {
      this.cover = new Float32Array(n);
      this.touched = new Int32Array(n);
    }
  }

  search(query: string, options: SearchOptions = {}, queryVector?: Float32Array, explain = false): RankedHit[] {
    const { ranked, candidates, exactDocs, queryTerms, passes } = this.rank(query, options, queryVector);
    const hits = this.collapseFamilies(ranked, candidates, exactDocs, queryTerms, options.limit ?? 10, passes);
    if (explain) {
      const signals = new Map(ranked.map(({ doc, signals: s }) => [doc, s]));
      for (const hit of hits) hit.signals = signals.get(this.bySlug.get(hit.tool.slug)!);
    }
    return hits;
  }

  /**
   * Every candidate of a query with its feature vector (rank.ts FEATURES), before families are collapsed: what
   * scripts/fit-ranking.ts learns the weights from. `head` is the slug of the candidate's family head.
   */
  candidateFeatures(query: string, options: SearchOptions = {}, queryVector?: Float32Array): Array<{ slug: string; head: string; features: number[] }> {
    const { ranked, context } = this.rank(query, options, queryVector);
    return ranked.map(({ doc, signals: s }) => ({ slug: this.tools.slug(doc), head: this.tools.slug(this.heads[doc]!), features: features(s, context) }));
  }

  /**
   * The text a query's vector should be computed from: the query itself, or for a peer query ("alternative to moment")
   * the named tool's own description and keywords with the rest of the query, so that meaning finds its neighbours.
   */
  embeddingText(query: string): string {
    const parsed = this.parse(query);
    const peer = this.resolvePeer(parsed);
    if (peer === undefined) return query;
    const tool = this.tools.record(peer);
    return [parsed.terms.join(' '), tool.description, tool.keywords.join(' ')].filter(Boolean).join('. ');
  }

  /**
   * The tool with one of these names (in the ecosystem given, when one is), or undefined. Where several tools have the
   * name (a `paperclip` gem and a `paperclip` crate), the query's other words say which one is meant: the tools whose
   * own description and keywords share one of them come first ("paperclip is deprecated, what handles file attachments"
   * is the gem, whose description speaks of attachments), and among those the more popular within its ecosystem. A
   * count of shared words decided alone was tried: a question's own words ("what … should") then picked an obscure
   * namesake over the well-known tool.
   */
  private resolveName(forms: string[], ecosystem?: Ecosystem, context: string[] = []): number | undefined {
    // A Go module written without its host ("golang/mock") is the GitHub path of that name.
    for (const form of forms.flatMap((f) => (/^[a-z0-9-]+\/[a-z0-9._-]+$/.test(f) && !f.startsWith('@') ? [f, `github.com/${f}`] : [f]))) {
      const docs = (this.exact.get(form.replace(/[_.\s]+/g, '-')) ?? [])
        .filter((doc) => !ecosystem || ECOSYSTEMS[this.ecosystem[doc]!] === ecosystem);
      if (docs.length === 0) continue;
      const shared = docs.length > 1 && context.length ? docs.map((doc) => Math.min(1, this.contextShare(doc, context))) : docs.map(() => 0);
      let best = 0;
      for (let k = 1; k < docs.length; k++) {
        if (shared[k]! > shared[best]! || shared[k] === shared[best] && this.popularity[docs[k]!]! > this.popularity[docs[best]!]!) best = k;
      }
      return docs[best];
    }
    return undefined;
  }

  /** How many of the (stemmed) context words a tool's own description and keywords contain. */
  private contextShare(doc: number, context: string[]): number {
    const tool = this.tools.record(doc);
    const own = new Set(indexTerms([tool.description, tool.keywords.join(' ')].join(' ')));
    return context.filter((term) => own.has(term)).length;
  }

  /** The query's own words, stemmed as the index stems them: what tells one tool of a shared name from another. */
  private static context(parsed: ParsedQuery): string[] {
    return [...new Set(parsed.terms.flatMap((term) => indexTerms(term)))];
  }

  /**
   * The tool a query asks for peers of: named in a peer phrase ("like requests"), or a bare name asked for in another
   * ecosystem than the one it lives in ("express for python", "devise in go").
   */
  private resolvePeer(parsed: ParsedQuery): number | undefined {
    if (parsed.peerOf) {
      // "like python requests": the name in the ecosystem its language word says, if it lives there.
      const context = CatalogSearchIndex.context(parsed);
      const resolve = (forms: string[]) => (parsed.peerEcosystem && this.resolveName(forms, parsed.peerEcosystem, context)) ?? this.resolveName(forms, undefined, context);
      // Each name offered is resolved as a group of its spellings (the first spelling the catalog has stands for it:
      // "styled components" is styled-components, not styled). Several names offered ("amethyst game engine
      // archived": engine, game, amethyst): the tool whose own words share most of the query's other words is meant;
      // a tie goes to the name offered first.
      const found = [...new Set(parsed.peerOf.map((forms) => resolve(forms)).filter((doc): doc is number => doc !== undefined))];
      if (found.length <= 1) return found[0];
      const words = [...new Set(parsed.words.flatMap((word) => indexTerms(word)))];
      const shares = found.map((doc) => {
        const own = new Set(this.nameTerms(doc));
        return this.contextShare(doc, words.filter((word) => !own.has(word)));
      });
      return found[shares.indexOf(Math.max(...shares))];
    }
    if (!parsed.bareName || !parsed.ecosystem) return undefined;
    const form = parsed.nameGuess.replace(/[_.\s]+/g, '-');
    if (this.resolveName([form], parsed.ecosystem) !== undefined) return undefined;
    // Only a name people know elsewhere is read as "its peers here" ("express for python"), at the framework cues' bar:
    // an obscure namesake in another ecosystem is a plain word ("tls in rust" had read npm's `tls`, ruled out every
    // crate named after it, and answered nothing).
    const elsewhere = this.resolveName([form]);
    return elsewhere !== undefined && this.popularity[elsewhere]! >= CUE_MIN_POPULARITY ? elsewhere : undefined;
  }

  /** A tool's family and the packages named after it: not answers to "alternative to X" or "… without X". */
  private excluder(docs: number[]): ((doc: number) => boolean) | undefined {
    if (docs.length === 0) return undefined;
    const heads = new Set(docs.map((doc) => this.heads[doc]!));
    const names = new Set(docs.flatMap((doc) => this.nameTerms(doc).filter((term) => term.length >= 3)).filter((term) =>
      docs.some((doc) => this.nameTerms(doc).length === 1 && this.nameTerms(doc)[0] === term)));
    // The excluded tools are listed once from the family and name tables: the filter runs on every matching tool and
    // every scanned vector, and testing each one's family and name terms there was most of an "alternative to" query.
    const { members, named } = this.nameTables();
    const out = new Set<number>();
    for (const head of heads) for (const doc of members.get(head) ?? []) out.add(doc);
    for (const name of names) for (const doc of named.get(name) ?? []) out.add(doc);
    return (doc) => out.has(doc);
  }

  /**
   * Builds the per-query tables that are otherwise built by the first query that needs them (a few hundred ms for the
   * name table): called off the request path after start-up and after a refresh, so no search waits for it.
   */
  warm(): void {
    this.nameTables();
    this.headRowDocs();
  }

  private nameTableCache: { members: Map<number, number[]>; named: Map<string, number[]> } | undefined;
  /** Tools by family head and by name term (nameTerms), built on first use and again when the tools change. */
  private nameTables(): { members: Map<number, number[]>; named: Map<string, number[]> } {
    if (this.nameTableCache) return this.nameTableCache;
    const members = new Map<number, number[]>();
    const named = new Map<string, number[]>();
    for (let doc = 0; doc < this.tools.size; doc++) {
      const head = this.heads[doc]!;
      const family = members.get(head);
      if (family) family.push(doc);
      else members.set(head, [doc]);
      // The same definition nameTerms() caches, computed here without filling that cache for every tool.
      for (const term of new Set(nameTermsOf(this.tools.name(doc)))) {
        const list = named.get(term);
        if (list) list.push(doc);
        else named.set(term, [doc]);
      }
    }
    this.nameTableCache = { members, named };
    return this.nameTableCache;
  }

  /** The candidates of a query, scored by the ranking expression (rank.ts), best first. */
  private readonly cueMemo = new Map<string, Ecosystem | null>();
  /**
   * Framework cues from the catalog, not from lists: a word (or two joined, "active record") is a framework of
   * ecosystem E when a widely used tool of E bears that name (`django`, `activerecord`, `next.js` → `next`) and the
   * tools whose own text (name, description, keywords, tags; READMEs differ in length by ecosystem) says the word live
   * mostly in E, counted per tool of each ecosystem (so RubyGems' few hundred tools weigh as much as npm's tens of
   * thousands). A word that is also a plain word ("date", "json", "requests") is said by tools of every ecosystem and
   * is no cue. Memoised per word (cleared when the tools change).
   */
  readonly frameworkOf: FrameworkOf = (word) => {
    let cue = this.cueMemo.get(word);
    if (cue === undefined) {
      cue = this.frameworkCue(word) ?? null;
      if (this.cueMemo.size > 20_000) this.cueMemo.clear();
      this.cueMemo.set(word, cue);
    }
    return cue ?? undefined;
  };

  /** The tools whose own text (name, description, keywords, tags) has the (stemmed) term. */
  private ownTextDocs(term: string): Set<number> {
    const hits = this.main.index.hits(term);
    const docs = new Set<number>();
    hits?.docs.forEach((doc, k) => {
      if (hits.fields[k]! & (DESCRIBED_FIELDS | KEYWORD_FIELDS)) docs.add(doc);
    });
    return docs;
  }

  private frameworkCue(word: string): Ecosystem | undefined {
    if (word.length < 3 || !/^[a-z][a-z0-9.+-]*$/.test(word)) return undefined;
    for (const form of new Set([word, word.replace(/\.(js|rb|py|rs)$/, '')])) {
      const named = (this.exact.get(form) ?? []).filter((doc) => this.popularity[doc]! >= CUE_MIN_POPULARITY);
      if (named.length === 0) continue;
      const terms = indexTerms(form);
      if (terms.length !== 1) continue;
      let sayers = this.ownTextDocs(terms[0]!);
      // A name written as one word is often written as two in prose ("ActiveRecord" is indexed as "active record"):
      // when few tools say the one word, the tools that say both halves of a split (each of 3 letters or more) count.
      if (sayers.size < CUE_MIN_TOOLS) {
        for (let i = 3; i <= form.length - 3; i++) {
          const [left, right] = [indexTerms(form.slice(0, i)), indexTerms(form.slice(i))];
          if (left.length !== 1 || right.length !== 1) continue;
          const second = this.ownTextDocs(right[0]!);
          const both = [...this.ownTextDocs(left[0]!)].filter((doc) => second.has(doc));
          if (both.length > sayers.size) sayers = new Set([...sayers, ...both]);
        }
      }
      if (sayers.size === 0) continue;
      const counts = new Array<number>(ECOSYSTEMS.length).fill(0);
      for (const doc of sayers) counts[this.ecosystem[doc]!]! += 1;
      const rates = counts.map((count, e) => count / Math.max(1, this.ecosystemSizes[e]!));
      const total = rates.reduce((a, b) => a + b, 0);
      const best = rates.indexOf(Math.max(...rates));
      if (total > 0 && counts[best]! >= CUE_MIN_TOOLS && rates[best]! / total >= CUE_SHARE && named.some((doc) => this.ecosystem[doc] === best)) {
        return ECOSYSTEMS[best];
      }
    }
    return undefined;
  }

  /**
   * The query parsed; a peer phrase whose name is no catalog tool ("alternative to foo" with no foo) is read as plain
   * words instead, so that its words still search (they were dropped as the phrase's).
   */
  private parse(query: string): ParsedQuery {
    const frameworkOf = CUE_SOURCES.derived ? this.frameworkOf : undefined;
    const parsed = parseQuery(query, { frameworkOf });
    if (!parsed.peerOf || this.resolvePeer(parsed) !== undefined) return parsed;
    return parseQuery(query, { peers: false, frameworkOf });
  }

  private rank(query: string, options: SearchOptions, queryVector?: Float32Array) {
    let parsed = this.parse(query);
    const peer = this.resolvePeer(parsed);
    const ruledOut = parsed.without.map((forms) => this.resolveName(forms)).filter((doc): doc is number => doc !== undefined);
    if (peer !== undefined) {
      // Peers are described by the named tool's own words (at a lower weight), in its ecosystem unless another is named;
      // the tool itself, its family and packages named after it are left out.
      const tool = this.tools.record(peer);
      const described = parseQuery([tool.description, tool.keywords.join(' ')].join(' '));
      // "express for python": the name is not a word to match in the other ecosystem (its plugins would answer).
      const own = new Set(this.nameTerms(peer));
      const weightsOf = new Map([...parsed.weights].filter(([term]) => parsed.peerOf || !indexTerms(term).every((t) => own.has(t))));
      for (const [term, weight] of described.weights) if (!weightsOf.has(term)) weightsOf.set(term, weight * PEER_TEXT_WEIGHT);
      parsed = {
        ...parsed, terms: [...new Set([...parsed.terms.filter((term) => weightsOf.has(term)), ...described.terms])], weights: weightsOf, bareName: false, nameGuess: '',
        ecosystem: parsed.ecosystem ?? ECOSYSTEMS[this.ecosystem[peer]!]!,
      };
      ruledOut.push(peer);
    }
    const excluded = this.excluder(ruledOut);
    const weights = new Map<string, number>();
    for (const [term, weight] of parsed.weights) {
      for (const stemmed of indexTerms(term)) weights.set(stemmed, Math.max(weights.get(stemmed) ?? 0, weight));
    }
    // Expansions ("auth" → "authentication") add matches but not to the share of the query a tool must cover.
    const totalWeight = parsed.terms.reduce((sum, term) => sum + (parsed.weights.get(term) ?? 1), 0) || 1;
    const passes = this.filter({ ...options, exclude: excluded });

    // Full text: accumulate every term's postings into the weighted share of the query each tool covers (typed
    // arrays, reset after use); which fields matched is read in stage two, for the candidates only.
    const { cover, touched } = this;
    let count = 0;
    // Rare terms first. A very common term ("data", "node") only adds to tools a rarer term found already: a tool that
    // matches nothing but the common words is never the answer, and their postings are most of a query's cost.
    const common = Math.max(COMMON_TERM_MIN, this.tools.size * COMMON_TERM_SHARE);
    const ordered = [...weights].map(([term, weight]) => ({ term, weight, df: this.main.index.documentFrequency(term) }))
      .sort((a, b) => a.df - b.df);
    const anyRare = ordered.some(({ df }) => df > 0 && df <= common);
    for (const segment of this.delta ? [this.main, this.delta] : [this.main]) {
      const map = segment.docs;
      // Main-segment postings of tools that changed since the build are outdated (the delta segment has them).
      const stale = !map && this.changed.size > 0 ? this.stale : undefined;
      for (const { term, weight, df } of ordered) {
        const hits = segment.index.hits(term);
        if (!hits) continue;
        const onlyTouched = anyRare && df > common;
        const { docs } = hits;
        const length = docs.length;
        // This loop runs once per posting of every query term: no closures, no optional lookups in the common case.
        for (let k = 0; k < length; k++) {
          const doc = map ? map[docs[k]!]! : docs[k]!;
          if (stale !== undefined && stale[doc]) continue;
          if (cover[doc] === 0) {
            if (onlyTouched) continue;
            touched[count++] = doc;
          }
          cover[doc]! += weight;
        }
      }
    }
    try {
      const exactDocs = new Set((this.exact.get(parsed.nameGuess.replace(/[_.\s]+/g, '-')) ?? []).filter(passes));
      const unfiltered = !(options.ecosystem || options.language || options.category || excluded);
      const context: RankContext = { ecosystem: options.ecosystem ? undefined : parsed.ecosystem, single: parsed.bareName };
      // The most popular of the named tools (those a name in another ecosystem than the one asked for does not count as).
      for (const doc of exactDocs) {
        if (context.ecosystem && ECOSYSTEMS[this.ecosystem[doc]!] !== context.ecosystem) continue;
        context.namedTop = Math.max(context.namedTop ?? 0, this.popularity[doc]!);
      }
      const signals = (doc: number, semantic = 0): Signals => ({
        coverage: Math.min(1, cover[doc]! / totalWeight),
        popularity: this.popularity[doc]!,
        ecosystem: ECOSYSTEMS[this.ecosystem[doc]!]!,
        exact: exactDocs.has(doc),
        semantic,
        cosine: 0,
        nameCoverage: 0,
        describedCoverage: 0,
        keywordCoverage: 0,
        readmeCoverage: 0,
        member: this.heads[doc] !== doc,
        namesakes: this.namesakes[doc]!,
      });
      // Stage 1: the lexical blend over every matching tool, keeping the best CANDIDATES.
      const top = new TopK(CANDIDATES.value);
      const intentOf = context.ecosystem ? ECOSYSTEMS.indexOf(context.ecosystem) : -1;
      const popularityTerm = this.popularityTerm();
      const ecosystemOf = this.ecosystem;
      const { coverage: coverageWeight, intentMatch, intentOther } = WEIGHTS;
      for (let i = 0; i < count; i++) {
        const doc = touched[i]!;
        if (!unfiltered && !passes(doc)) continue;
        // The lexical part of the ranking expression, inline: this loop runs over every matching tool.
        const intent = intentOf < 0 ? 0 : ecosystemOf[doc] === intentOf ? intentMatch : intentOther;
        top.push(doc, coverageWeight * Math.min(1, cover[doc]! / totalWeight) + popularityTerm[doc]! + intent);
      }
      for (const doc of exactDocs) if (!top.has(doc)) top.push(doc, blend(signals(doc), context));
      const candidates = new Set(top.docs());

      // Stage 2: meaning and families over the candidates.
      const semantic = new Map<number, number>();
      if (queryVector && this.vectors) {
        // Only when some word of the query is known: vectors of gibberish still have nearest neighbours.
        if (count > 0 && (count < SEMANTIC_POOL.scanBelow || peer !== undefined)) this.addSemanticCandidates(queryVector, Boolean(excluded), options, passes, candidates);
        const rows = this.vectorRows();
        const all = this.vectors.all;
        for (const doc of candidates) {
          const cosine = rows ? (rows[doc]! < 0 ? undefined : all.scoreAt!(queryVector, rows[doc]!)) : all.score(queryVector, this.tools.slug(doc));
          if (cosine !== undefined) semantic.set(doc, cosine);
        }
      }
      // Each query term's postings per segment, for the per-field coverage of the candidates (read by binary search).
      const termHits = [...weights].map(([term, weight]) => ({
        weight, main: this.main.index.hits(term), delta: this.delta?.index.hits(term),
      }));
      const cosines = [...semantic.values()];
      const best = Math.max(0, ...cosines);
      const mean = cosines.length ? cosines.reduce((a, b) => a + b, 0) / cosines.length : 0;
      const ranked = [...candidates].map((doc) => {
        const s = signals(doc, best > mean ? Math.max(0, ((semantic.get(doc) ?? mean) - mean) / (best - mean)) : 0);
        s.cosine = semantic.get(doc) ?? 0;
        let named = 0;
        for (const term of new Set(this.nameTerms(doc))) named += weights.get(term) ?? 0;
        s.nameCoverage = Math.min(1, named / totalWeight);
        this.fieldCoverage(doc, termHits, totalWeight, s);
        return { doc, score: blend(s, context), signals: s };
      }).sort((a, b) => b.score - a.score || this.popularity[b.doc]! - this.popularity[a.doc]! || a.doc - b.doc);
      return { ranked, candidates, exactDocs, queryTerms: new Set(weights.keys()), passes, context };
    } finally {
      for (let i = 0; i < count; i++) {
        cover[touched[i]!] = 0;
      }
    }
  }

  /**
   * Weighted share of the query's terms found in each field group of one tool: the registry's name and description,
   * its keywords and tags (categories, frameworks), its README opening. A term in several groups counts in each.
   */
  private fieldCoverage(
    doc: number, termHits: Array<{ weight: number; main?: TermHits; delta?: TermHits }>, totalWeight: number, s: Signals,
  ): void {
    const local = this.delta?.local?.get(doc);
    let described = 0;
    let keyword = 0;
    let readme = 0;
    for (const { weight, main, delta } of termHits) {
      const hits = local !== undefined ? delta : main;
      if (!hits) continue;
      const mask = (local !== undefined ? this.delta!.index : this.main.index).fieldsOf(hits, local ?? doc);
      if (mask & DESCRIBED_FIELDS) described += weight;
      if (mask & KEYWORD_FIELDS) keyword += weight;
      if (mask & README_FIELDS) readme += weight;
    }
    s.describedCoverage = Math.min(1, described / totalWeight);
    s.keywordCoverage = Math.min(1, keyword / totalWeight);
    s.readmeCoverage = Math.min(1, readme / totalWeight);
  }

  private addSemanticCandidates(
    queryVector: Float32Array, excluding: boolean, options: SearchOptions, passes: (doc: number) => boolean, candidates: Set<number>,
  ): void {
    const filtered = Boolean(options.ecosystem || options.language || options.category) || excluding;
    // The filter runs once per scanned vector (a quarter of the catalog): by row table when there is one, since a lookup
    // by slug per row was a third of a filtered query's time ("alternative to X" queries are all filtered).
    const rowDocs = filtered ? this.headRowDocs() : undefined;
    const accept = !filtered ? undefined : rowDocs
      ? (_slug: string, row: number) => passes(rowDocs[row] ?? -1)
      : (slug: string) => passes(this.bySlug.get(slug) ?? -1);
    for (const hit of this.vectors!.head.search(queryVector, SEMANTIC_POOL.candidates, accept)) {
      const doc = this.bySlug.get(hit.id);
      if (doc !== undefined) candidates.add(doc);
    }
  }

  /**
   * One entry per family: a member the query does not name gives its place to the family's head (when the head is
   * itself a candidate), so `clap_builder` shows as `clap` and `@eslint/object-schema` does not show for "object schema".
   */
  private collapseFamilies(
    ranked: Array<{ doc: number; score: number }>, candidates: Set<number>, exactDocs: Set<number>, queryTerms: Set<string>,
    limit: number, passes: (doc: number) => boolean,
  ): RankedHit[] {
    const shown = new Set<number>();
    const out: Array<{ doc: number; score: number }> = [];
    const scoreOf = new Map(ranked.map(({ doc, score }) => [doc, score]));
    for (const { doc, score } of ranked) {
      // Heads can move up to 2 points down, so a little more than `limit` picks settle the first `limit`.
      if (out.length >= limit * 2 + 5) break;
      let pick = doc;
      let pickScore = score;
      const head = this.heads[doc]!;
      if (head !== doc && !exactDocs.has(doc) && !this.namedByQuery(doc, head, queryTerms)) {
        // The head takes the member's place only when it answers the query nearly as well on its own, and with its
        // own score (a penalty the head earned stays with it).
        const headScore = candidates.has(head) && passes(head) ? scoreOf.get(head) : undefined;
        if (headScore === undefined || headScore < score - FAMILY_MARGIN.value) continue;
        [pick, pickScore] = [head, Math.min(score, headScore)];
      }
      if (shown.has(pick)) continue;
      shown.add(pick);
      out.push({ doc: pick, score: pickScore });
    }
    return out.sort((a, b) => b.score - a.score).slice(0, limit).map(({ doc, score }) => ({ tool: this.tools.record(doc), score }));
  }

  /**
   * The query names a member when it uses both a word of the family's name and a word only the member's name has
   * ("clap derive" names `clap_derive`; "test runner" does not name `@vitest/runner`).
   */
  private namedByQuery(doc: number, head: number, queryTerms: Set<string>): boolean {
    const headTerms = new Set(this.nameTerms(head));
    const memberTerms = this.nameTerms(doc);
    const familyWord = memberTerms.some((term) => headTerms.has(term) && queryTerms.has(term));
    return familyWord && memberTerms.some((term) => !headTerms.has(term) && queryTerms.has(term));
  }

  private readonly nameTermCache = new Map<number, string[]>();
  private nameTerms(doc: number): string[] {
    let terms = this.nameTermCache.get(doc);
    if (!terms) {
      terms = nameTermsOf(this.tools.name(doc));
      if (this.nameTermCache.size > 250_000) this.nameTermCache.clear();
      this.nameTermCache.set(doc, terms);
    }
    return terms;
  }

  private vectorRowCache: { vectors: ToolVectors; layout: number; rows: Int32Array } | undefined;
  /**
   * Each tool's row in the vector index (-1: none), rebuilt when the tools or the vector index's rows change. Scoring a
   * candidate by slug cost a string-keyed lookup in a 70,000-entry map per candidate: most of the semantic layer's time.
   */
  private vectorRows(): Int32Array | undefined {
    const vectors = this.vectors;
    const all = vectors?.all;
    if (!vectors || !all?.rowOf || !all.scoreAt || all.layout === undefined) return undefined;
    const cached = this.vectorRowCache;
    if (cached && cached.vectors === vectors && cached.layout === all.layout && cached.rows.length === this.tools.size) return cached.rows;
    const rows = Int32Array.from(this.tools.slugs(), (slug) => all.rowOf!(slug));
    this.vectorRowCache = { vectors, layout: all.layout, rows };
    return rows;
  }

  private headRowCache: { vectors: ToolVectors; layout: number; tools: number; docs: Int32Array } | undefined;
  /** Each row of the head vector index's tool (-1: none), rebuilt when the tools or the head index's rows change. */
  private headRowDocs(): Int32Array | undefined {
    const vectors = this.vectors;
    const head = vectors?.head;
    if (!vectors || !head?.rowOf || head.layout === undefined || head.size === undefined) return undefined;
    const cached = this.headRowCache;
    if (cached && cached.vectors === vectors && cached.layout === head.layout && cached.tools === this.tools.size && cached.docs.length === head.size) return cached.docs;
    const docs = new Int32Array(head.size).fill(-1);
    for (const [slug, doc] of this.bySlug) {
      const row = head.rowOf(slug);
      if (row >= 0) docs[row] = doc;
    }
    this.headRowCache = { vectors, layout: head.layout, tools: this.tools.size, docs };
    return docs;
  }

  private popularityTermCache: { squared: number; values: Float64Array } | undefined;
  /** The popularity feature's share of every tool's score, computed once (a power per matching tool was a tenth of a query). */
  private popularityTerm(): Float64Array {
    const { popularitySq: squared } = WEIGHTS;
    const cached = this.popularityTermCache;
    if (cached && cached.squared === squared && cached.values.length === this.popularity.length) return cached.values;
    const values = Float64Array.from(this.popularity, (p) => squared * p * p);
    this.popularityTermCache = { squared, values };
    return values;
  }

  private filter(options: SearchOptions & { exclude?: (doc: number) => boolean }): (doc: number) => boolean {
    const ecosystem = options.ecosystem ? ECOSYSTEMS.indexOf(options.ecosystem) : -1;
    const language = options.language?.toLowerCase();
    const category = options.category?.toLowerCase();
    const exclude = options.exclude;
    return (doc) => {
      if (doc < 0) return false;
      if (exclude && exclude(doc)) return false;
      if (ecosystem >= 0 && this.ecosystem[doc] !== ecosystem) return false;
      if (language && !this.tools.languages(doc).some((l) => l.toLowerCase() === language)) return false;
      if (category && !this.tools.categories(doc).includes(category)) return false;
      return true;
    };
  }
}

/** Share of the log-scale position (against the ecosystem's least and most popular tool) in the popularity signal. */
export const POPULARITY_LOG_SHARE = { value: 0 };

/**
 * Popularity on one scale for every ecosystem, from the tool's own ecosystem only: mostly its percentile there (so no
 * ecosystem's numbers outweigh another's), partly its position on the ecosystem's log scale of downloads or rank (so
 * the head stays spread out: a percentile alone squeezes zod and a helper with a third of its downloads together).
 */
export function popularityWithinEcosystem(tools: readonly ToolFacts[]): Float32Array {
  const out = new Float32Array(tools.length);
  const groups = new Map<Ecosystem, number[]>();
  tools.forEach((tool, doc) => {
    const list = groups.get(tool.ecosystem);
    if (list) list.push(doc);
    else groups.set(tool.ecosystem, [doc]);
  });
  const share = POPULARITY_LOG_SHARE.value;
  for (const docs of groups.values()) {
    docs.sort((a, b) => tools[a]!.popularity - tools[b]!.popularity);
    const low = tools[docs[0]!]!.popularity;
    const high = tools[docs[docs.length - 1]!]!.popularity;
    let i = 0;
    while (i < docs.length) {
      let j = i;
      while (j + 1 < docs.length && tools[docs[j + 1]!]!.popularity === tools[docs[i]!]!.popularity) j++;
      const percentile = docs.length > 1 ? (i + j) / 2 / (docs.length - 1) : 1;
      for (let k = i; k <= j; k++) {
        const scaled = high > low ? (tools[docs[k]!]!.popularity - low) / (high - low) : 1;
        out[docs[k]!] = (1 - share) * percentile + share * scaled;
      }
      i = j + 1;
    }
  }
  return out;
}

/**
 * The terms of a tool's name (stemmed as the index stems them): what the family, peer and exclusion rules compare.
 * One definition for the per-tool cache (nameTerms) and the name table (nameTables), so the two cannot diverge.
 */
function nameTermsOf(name: string): string[] {
  return indexTerms(name);
}

/** A tool's text by field, as the full-text index sees it. */
export function fieldTexts(tool: ToolRecord): FieldTexts {
  const readme = typeof tool.extra.readmeExcerpt === 'string' ? tool.extra.readmeExcerpt.slice(0, README_INDEX_CHARS.value) : '';
  return {
    name: tool.name.replace(/^github\.com\/|^golang\.org\/x\//, ''),
    keywords: tool.keywords.join(' '),
    description: tool.description,
    // Languages stay out: the ecosystem says them, and "TypeScript" on half of npm made postings long and queries slow.
    tags: [...tool.categories, ...tool.frameworks].join(' '),
    readme,
  };
}

/** The k best (doc, score) pairs seen, by a min-heap in typed arrays (this runs once per matching tool). */
class TopK {
  private readonly heapDocs: Int32Array;
  private readonly heapScores: Float64Array;
  private size = 0;
  constructor(private readonly k: number) {
    this.heapDocs = new Int32Array(k);
    this.heapScores = new Float64Array(k);
  }

  push(doc: number, score: number): void {
    const d = this.heapDocs;
    const s = this.heapScores;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (s[p]! <= score) break;
        d[i] = d[p]!;
        s[i] = s[p]!;
        i = p;
      }
      d[i] = doc;
      s[i] = score;
      return;
    }
    if (score <= s[0]!) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const m = r < this.size && s[r]! < s[l]! ? r : l;
      if (s[m]! >= score) break;
      d[i] = d[m]!;
      s[i] = s[m]!;
      i = m;
    }
    d[i] = doc;
    s[i] = score;
  }

  has(doc: number): boolean {
    for (let i = 0; i < this.size; i++) if (this.heapDocs[i] === doc) return true;
    return false;
  }

  docs(): number[] {
    return Array.from(this.heapDocs.subarray(0, this.size));
  }
}
