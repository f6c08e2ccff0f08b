// rankPassages: orders one package's passages for a question. Lexical evidence (BM25F, how much of the question the
// body answers, phrases), semantic similarity when vectors are there, and priors (public API and README over
// internals, deprecated down); then near-duplicates collapse so the top answers differ. Pure: index in, ranking out.
import type { LexicalIndex, QueryTerm } from './lexical.ts';

export interface IndexedPassage {
  id: number; url: string; title: string | null; headings: string[]; content: string; source: string;
  identifiers: string[]; symbol: string | null; importance: number; internal: boolean;
  /** Its authors mark it deprecated or legacy (already counted in `importance`; shown to the caller). */
  deprecated?: boolean;
  /** How much the package's other passages use this item's name in code (src/docs/centrality.ts), 0–1. */
  centrality?: number;
  /** An API declaration with no text that explains it (no prose, no example): ranked below passages that explain. */
  bare?: boolean;
}

/** A ranked passage: `doc` is its position in the package index's passages. */
export interface Ranked extends IndexedPassage { score: number; doc: number }

export const WEIGHTS = {
  bm25: 1.0, bodyCoverage: 0.55, proximity: 0.25, exact: 0.6,
  importance: 0.35, internal: 0.35, semantic: 1.0, duplicate: 0.75, name: 1.0, centrality: 0.3,
  /**
   * Above 0: the word ranking and the meaning ranking are fused by reciprocal rank (1/(k + rank), the meaning side
   * weighted by this), instead of adding the similarity to the word score: the two scores have different spreads per
   * question, their orders do not. 0.5 since round 14: judged forward-chaining (each of fresh-r10 … fresh-r13 ranked
   * with the weight a coordinate search picks on the sets written before it; 0.5 on every one) +14 hit@3 and +23 hit@1
   * over those 768 questions against 1, and +17 / +51 by leave-one-set-out over thirteen sets (docs/docs-search.md).
   * `rrfK`, the rank constant, 10 → 2 in round 15: a passage at the top of one order now counts for more against one
   * middling in both (the misses whose answer tops the word or the meaning order alone). Judged forward-chaining on
   * fresh-r10 … fresh-r14, each set ranked with the k a search picks on the sets written before it: hit@1/hit@3 562/744
   * against 555/741 of 960, better on 3 sets, worse on 1 (docs/docs-search.md, "Round 15").
   */
  rrf: 0.5, rrfK: 2,
  /** Taken off a deprecated passage's similarity in the meaning order (the word order has it in `importance`). */
  deprecatedMeaning: 0.1,
  /**
   * Taken off a bare declaration's similarity (`bareMeaning`): a passage that explains wins for the same meaning. The
   * word-side `bare` was pruned by round 12's ablation (the `example` and `textCoverage` weights carry that evidence)
   * and its code removed in round 13.
   */
  bareMeaning: 0.05,
  /**
   * Evidence from the guides: an API item that one of the best few guide sections uses in its code (src/docs/links.ts)
   * gains this share of that section's score (rising at most to just below the section), so "how do I X" lifts the
   * item the package's own guide for X calls.
   */
  guideUse: 0, guideSections: 5,
  /**
   * Evidence features the fit may weigh (0 = the hand-set ranking does not): a passage with a code example up; a guide
   * section (no symbol) against an API item. Removed in round 10 as paying nothing on held-out sets (docs/docs-search.md,
   * "Round 10: ranking"): `titleCoverage` (weight 0.2), the word-side `deprecated` (0; a deprecated passage stays down
   * through `importance` and `deprecatedMeaning`), and round 9's `prose`/`explains` (0).
   */
  example: 0.2385, section: 0.5824,
  /**
   * Round 11 (docs/docs-search.md, "Round 11: ranking"): `textCoverage`, the share of
   * the question the passage's text says beyond its name; `ownerCentrality`, how much the package's docs use the
   * owner of a member (an item whose symbol's parent is another documented item: `IndexMap::shift_remove` over
   * `OccupiedEntry::shift_remove`); `guideCalled`, how well the best-matching guide section that calls the item in its
   * code matches the question. Round 11's `member`, `field` and `moduleDoc` were pruned by round 12's ablation and
   * their code removed in round 13 (docs/docs-search.md, "Round 13: ranking").
   */
  textCoverage: 0.6456, ownerCentrality: 0.1642, guideCalled: 0.7315,
  /**
   * Round 20 (d3): added to the word score of a candidate that both orders find good — in the top `AGREE_MEANING` by
   * meaning and the top `AGREE_WORDS` by words (the word score above, before this term) — so the fusion does not leave
   * it under a passage only the words put first (the answer at word rank 4–10 and meaning rank 1–3, with a sibling item
   * above it: D1's largest miss class of round 20). 0.2: the weight a coordinate search picks on the sets before each of
   * fresh-r15 … fresh-r20 (forward-chaining, docs/docs-search.md "Round 20 (issue 20, d3)"). Only with meaning.
   */
  agree: 0.2,
  // The evidence and round-11 weights above (example … guideCalled) are round 12's pairwise logistic fit `trail+round12 l=10`
  // of scripts/fit-docs-ranking.ts on all eleven spent sets (2,114 questions; tuning), shrunk toward the round-10
  // hand-set values. Round 12's per-feature ablation (docs/docs-search.md, "Round 12: ranking") pruned `bare` (word
  // side; `bareMeaning` stays), `member`, `field` and `moduleDoc`: refitted without the four, held-out hit@3 moved by
  // less than the stated bar (11 questions); their weight is 0 and no fit takes them. Leave-one-set-out: hit@3 1,696,
  // hit@1 1,216 vs 1,700 / 1,214 for round 11's recipe refitted the same way; on fresh-r11 (held out for both) 148 / 109
  // vs the round-11 weights' 145 / 107.
};
/**
 * Answer diversity, a setting and not a weight (nothing fits it): true = a guide section's identity (what counts once
 * in an answer) is its URL and its heading trail; false = its URL alone. Where a site gives every section of a page one
 * URL (pkg.go.dev's `#section-readme` for a whole README), the URL alone let one README section take the page's only
 * slot (round 12: Go hit@3 +8 of 517 held out, tuning). `RankOptions.sectionTrail` overrides it per call.
 */
export const SECTION_TRAIL = true;
/** Candidates rescored in full and checked for near-duplicates. */
const POOL = 60;
export type DocsWeights = typeof WEIGHTS;

/**
 * The named features of one candidate's word score, as the expression in rankPassages reads them (each multiplied by
 * the WEIGHTS entry of the same name; `internal` is -1 when the passage is so, 0 otherwise;
 * `example` and `section` 1 when it has a code example / is a guide section, else 0).
 */
export const WORD_FEATURES = [
  'bm25', 'bodyCoverage', 'proximity', 'name', 'exact', 'importance', 'internal', 'centrality', 'example', 'section',
  'textCoverage', 'ownerCentrality', 'guideCalled',
] as const;
export type WordFeature = typeof WORD_FEATURES[number];
export interface FeatureRow { doc: number; features: Record<WordFeature, number>; matched: boolean; similarity?: number }
/**
 * One ranked candidate pool, handed to `RankOptions.observe` (scripts/fit-docs-ranking.ts fits on it): each candidate's
 * feature values and `rerank`, which orders the same pool under other weights with this code (not a copy).
 * `nearDuplicates` lists the pairs among `docs` that the ranker would collapse as near-duplicates (body-term Jaccard at
 * or above `WEIGHTS.duplicate`), so a caller that stores the pool can reorder it later with `orderPool` alone.
 */
export interface RankPool {
  question: string; rows: FeatureRow[]; semantic: boolean; passages: readonly IndexedPassage[];
  rerank: (weights: DocsWeights, diversity?: { sectionTrail?: boolean }) => Ranked[];
  nearDuplicates: (docs: number[]) => Array<[number, number]>;
}

/** The word score: each named feature times the weight of the same name (the ranker's one expression). */
export const wordScore = (weights: Record<WordFeature, number>, features: Record<WordFeature, number>): number => {
  let score = 0;
  for (const f of WORD_FEATURES) score += weights[f] * features[f];
  return score;
};

export interface RankOptions {
  limit: number;
  /** Identifiers written in the question (`safeParse`, `z.infer`), lower-cased. */
  identifiers: string[];
  /** Cosine similarity of the question to passage i, when the package's vectors are ready. */
  semantic?: (doc: number) => number;
  /** Terms related by meaning to the question's words (`sort` → order), at lower weight. */
  related?: Array<{ term: string; weight: number }>;
  /** The API items (passage positions) a guide section's code uses: links of the package index. */
  uses?: (doc: number) => number[];
  /** Called with the candidate pool and its feature values (fitting and diagnostics; the service passes none). */
  observe?: (pool: RankPool) => void;
  /** Other weights than WEIGHTS (tests of one weight's effect; the service passes none). */
  weights?: DocsWeights;
  /** Another answer-diversity setting than SECTION_TRAIL (tests and the fitter; the service passes none). */
  sectionTrail?: boolean;
}

/** A code example in the passage: a fenced block (the extractors write examples so). */
const hasExample = (content: string) => content.includes('```');
/**
 * Per package index (its passages array, as the membership memo below): whether each passage has an example, read once
 * per passage instead of a scan of every candidate's whole content on every question (the weight is no longer 0, and
 * the scan was the new main-thread cost of docs answers under load).
 */
const exampleMemo = new WeakMap<readonly IndexedPassage[], Int8Array>();
function hasExampleAt(passages: readonly IndexedPassage[], doc: number): boolean {
  let known = exampleMemo.get(passages);
  if (!known || known.length !== passages.length) exampleMemo.set(passages, known = new Int8Array(passages.length).fill(-1));
  if (known[doc]! < 0) known[doc] = hasExample(passages[doc]!.content) ? 1 : 0;
  return known[doc] === 1;
}

function jaccard(left: Set<number>, right: Set<number>): number {
  if (!left.size || !right.size) return 0;
  let shared = 0;
  for (const id of left) if (right.has(id)) shared++;
  return shared / (left.size + right.size - shared);
}

/** Reciprocal-rank fusion of the word scores with the similarities (a passage without a vector has no rank by meaning). */
function fuseByRank(weights: DocsWeights, lexical: Array<{ doc: number; score: number; matched: boolean }>, similarity: (doc: number) => number): Array<{ doc: number; score: number }> {
  // A passage that shares no word with the question (a meaning-only candidate) has no rank by words.
  const byWords = lexical.filter(({ matched }) => matched).sort((a, b) => b.score - a.score || a.doc - b.doc);
  const byMeaning = lexical.filter(({ doc }) => similarity(doc) !== 0).sort((a, b) => similarity(b.doc) - similarity(a.doc) || a.doc - b.doc);
  const fused = new Map<number, number>(lexical.map(({ doc }) => [doc, 0]));
  byWords.forEach(({ doc }, rank) => fused.set(doc, 1 / (weights.rrfK + rank + 1)));
  byMeaning.forEach(({ doc }, rank) => fused.set(doc, fused.get(doc)! + weights.rrf / (weights.rrfK + rank + 1)));
  return lexical.map(({ doc }) => ({ doc, score: fused.get(doc)! }));
}

const lastSegment = (symbol: string) => symbol.split(/::|\.|\//).pop()?.toLowerCase() ?? '';

/**
 * Per passage of a package (computed once per passages array): how much the package's docs use its owner, when it is a
 * member — an item whose symbol's parent is the symbol of another passage that is not a module's page (a module page's
 * heading trail starts at its own symbol), so `tokio::time::timeout` is not a member of `tokio::time` while
 * `url::Url::join` is one of `url::Url`. 0 for anything that is not a member. (Round 11's `member` and `field` flags,
 * read off the same pass, were pruned in round 12 and their code — a callable-or-not reading of every declaration —
 * removed in round 13.)
 */
const ownerMemo = new WeakMap<readonly IndexedPassage[], Float64Array>();
function ownerCentralities(passages: readonly IndexedPassage[]): Float64Array {
  let out = ownerMemo.get(passages);
  if (out) return out;
  const owners = new Map<string, number>();
  for (const p of passages) {
    if (!p.symbol || p.headings[0] === p.symbol) continue;
    owners.set(p.symbol, Math.max(owners.get(p.symbol) ?? 0, p.centrality ?? 0));
  }
  out = new Float64Array(passages.length);
  passages.forEach((p, i) => {
    if (!p.symbol) return;
    const cut = Math.max(p.symbol.lastIndexOf('::'), p.symbol.lastIndexOf('.'));
    if (cut > 0) out![i] = owners.get(p.symbol.slice(0, cut)) ?? 0;
  });
  ownerMemo.set(passages, out);
  return out;
}

/** Sections the guide evidence is read from: the best few by BM25 alone (a weight-free order, so the feature is too). */
const GUIDE_SECTIONS = 5;
/**
 * Per item symbol: the body coverage of the best-matching guide section (of the GUIDE_SECTIONS best by BM25) whose code
 * calls it (src/docs/links.ts), so the item a guide section for the question uses carries that section's match.
 */
function guideCalls(passages: readonly IndexedPassage[], scored: Array<{ doc: number; match: { bm25: number; bodyCoverage: number } }>, uses: (doc: number) => number[]): Map<string, number> {
  const called = new Map<string, number>();
  const sections = scored.filter(({ doc }) => !passages[doc]!.symbol).sort((a, b) => b.match.bm25 - a.match.bm25 || a.doc - b.doc).slice(0, GUIDE_SECTIONS);
  for (const { doc, match } of sections) {
    for (const item of uses(doc)) {
      const symbol = passages[item]?.symbol;
      if (symbol) called.set(symbol, Math.max(called.get(symbol) ?? 0, match.bodyCoverage));
    }
  }
  return called;
}

export function rankPassages(passages: IndexedPassage[], lexical: LexicalIndex, question: string, options: RankOptions): Ranked[] {
  const { observe } = options;
  const weights = options.weights ?? WEIGHTS;
  if (!observe) return rankWith(weights, passages, lexical, question, options);
  const rows: FeatureRow[] = [];
  // The pool's word matches and body term sets do not depend on the weights: computed once for every rerank.
  const memo: Memo = { bodySets: new Map() };
  const ranked = rankWith(weights, passages, lexical, question, options, rows, memo);
  const near = nearOf(lexical, memo.bodySets, weights.duplicate);
  observe({
    question, rows, semantic: Boolean(options.semantic), passages,
    rerank: (weights, diversity) => rankWith(weights, passages, lexical, question, { ...options, ...diversity }, undefined, memo),
    nearDuplicates: (docs) => docs.flatMap((a, i) => docs.slice(i + 1).filter((b) => near(a, b)).map((b): [number, number] => [a, b])),
  });
  return ranked;
}

interface Memo { scored?: Array<{ doc: number; match: ReturnType<LexicalIndex['match']> }>; bodySets: Map<number, Set<number>> }

function matchPool(lexical: LexicalIndex, question: string, options: RankOptions) {
  const asked = lexical.queryTerms(question);
  const totalIdf = asked.reduce((sum, t) => sum + t.idf, 0);
  const related = (options.related ?? []).map((r) => lexical.relatedTerm(r.term, r.weight)).filter((t): t is QueryTerm => Boolean(t) && !asked.some((a) => a.id === t!.id));
  const terms = [...asked, ...related];
  return lexical.candidates(terms).map((doc) => ({ doc, match: lexical.match(doc, terms, totalIdf) }));
}

function rankWith(weights: DocsWeights, passages: IndexedPassage[], lexical: LexicalIndex, question: string, options: RankOptions, rows?: FeatureRow[], memo?: Memo): Ranked[] {
  const scored = memo?.scored ?? matchPool(lexical, question, options);
  if (memo) memo.scored = scored;
  if (!scored.length) return [];
  const identifiers = new Set(options.identifiers);
  const maxBm25 = Math.max(...scored.map((s) => s.match.bm25)) || 1;
  const meaningOf = options.semantic;
  // Structure and guide features are computed only while observed or weighed (owners once per package index).
  const owners = rows || weights.ownerCentrality !== 0 ? ownerCentralities(passages) : undefined;
  const called = (rows || weights.guideCalled !== 0) && options.uses ? guideCalls(passages, scored, options.uses) : undefined;
  // A deprecated passage is down in the word score through its importance; here it is down in meaning too.
  const similarity = meaningOf && ((doc: number) => {
    const sim = meaningOf(doc);
    if (!sim) return sim;
    const passage = passages[doc]!;
    return sim - (passage.deprecated ? weights.deprecatedMeaning : 0) - (passage.bare ? weights.bareMeaning : 0);
  });
  const lexicalScores = scored.map(({ doc, match }) => {
    const passage = passages[doc]!;
    const exact = passage.symbol && identifiers.size && (identifiers.has(lastSegment(passage.symbol)) || identifiers.has(passage.symbol.toLowerCase()))
      || (identifiers.size > 0 && passage.identifiers.some((id) => identifiers.has(id)));
    // A scan of the whole content: skipped while its weight is 0, unless the features are being observed.
    const example = weights.example !== 0 || rows ? hasExampleAt(passages, doc) : false;
    const features: Record<WordFeature, number> = {
      bm25: match.bm25 / maxBm25, bodyCoverage: match.bodyCoverage, proximity: match.proximity,
      name: match.name, exact: exact ? 1 : 0, importance: passage.importance, internal: passage.internal ? -1 : 0,
      centrality: passage.centrality ?? 0,
      example: example ? 1 : 0, section: passage.symbol ? 0 : 1,
      textCoverage: match.textCoverage, ownerCentrality: owners?.[doc] ?? 0,
      guideCalled: passage.symbol ? called?.get(passage.symbol) ?? 0 : 0,
    };
    rows?.push({ doc, matched: match.bm25 > 0, ...(similarity ? { similarity: similarity(doc) } : {}), features });
    return { doc, score: wordScore(weights, features), matched: match.bm25 > 0 };
  });
  const guide = options.uses ? { isSection: (doc: number) => !passages[doc]!.symbol, uses: options.uses } : undefined;
  // Each passage's body terms as a set once per question (made anew for every comparison, they were a tenth of a docs
  // answer's main-thread CPU under load).
  const near = nearOf(lexical, memo?.bodySets ?? new Map(), weights.duplicate);
  const trail = options.sectionTrail ?? SECTION_TRAIL;
  const kept = orderPool(weights, lexicalScores, similarity || undefined, (doc) => keyUnder(trail, dedupKey(passages[doc]!)), near, options.limit, guide);
  return kept.map(({ doc, score }) => ({ ...passages[doc]!, score, doc }));
}

/** Near-duplicates by body terms: Jaccard of the two passages' term sets at or above `threshold`. */
function nearOf(lexical: LexicalIndex, bodySets: Map<number, Set<number>>, threshold: number) {
  const bodySet = (doc: number) => {
    let set = bodySets.get(doc);
    if (!set) bodySets.set(doc, set = new Set(lexical.bodyTerms(doc)));
    return set;
  };
  return (a: number, b: number) => jaccard(bodySet(a), bodySet(b)) >= threshold;
}

/**
 * What counts once in an answer: one passage per symbol or section (its best chunk). A module's doc is a page of
 * sections (rustdoc's `# Features`, tracing's "For `log` Users"): its passages' heading trail starts at the module's
 * own symbol, and each section stands for itself, as a guide's do; an item's chunks and its examples stay one.
 */
/** A passage of a module's doc page: its heading trail starts at the module's own symbol. */
const isModulePage = (passage: Pick<IndexedPassage, 'symbol' | 'headings'>) => Boolean(passage.symbol) && passage.headings[0] === passage.symbol;

export function dedupKey(passage: Pick<IndexedPassage, 'symbol' | 'headings' | 'url'>): string {
  const modulePage = isModulePage(passage);
  // A section's key carries its heading trail after TRAIL_MARK; `keyUnder` drops it when the trail is off.
  return !passage.symbol ? `section:${passage.url}${TRAIL_MARK}${passage.headings.join(TRAIL_MARK)}`
    : modulePage ? `symbol:${passage.symbol}\u0000${passage.headings.join('\u0000')}` : `symbol:${passage.symbol}`;
}
const TRAIL_MARK = '\u0001';
/** The key that counts once: a section's URL alone unless `sectionTrail` (SECTION_TRAIL by default) is on. */
export function keyUnder(sectionTrail: boolean, key: string): string {
  if (sectionTrail) return key;
  const cut = key.indexOf(TRAIL_MARK);
  return cut < 0 ? key : key.slice(0, cut);
}

/** Each passage's dedup key as an index into `keyNames` (first seen first): the fitters' compact form of a pool. */
export function dedupKeyIndex(passages: readonly Pick<IndexedPassage, 'symbol' | 'headings' | 'url'>[]): { keys: number[]; keyNames: string[] } {
  const keyNames: string[] = [];
  const keyIds = new Map<string, number>();
  const keys = passages.map((passage) => {
    const key = dedupKey(passage);
    if (!keyIds.has(key)) { keyIds.set(key, keyNames.length); keyNames.push(key); }
    return keyIds.get(key)!;
  });
  return { keys, keyNames };
}

/**
 * Orders a scored candidate pool into the answer: the word order fused with the meaning order, the guide lift, the
 * best POOL, then one passage per `key` and no near-duplicates (`near`), `limit` of them. The live ranking and a stored
 * pool (scripts/fit-docs-ranking.ts) both order through here, so a refit reranks with the ranker's own code.
 */
/** Round 20's `agree` term (WEIGHTS.agree): the meaning rank and the word rank within which both orders agree. */
export const AGREE_MEANING = 3;
export const AGREE_WORDS = 10;

/**
 * The word scores with `weights.agree` added to each candidate in the top AGREE_WORDS by word score (matched candidates,
 * as the fusion ranks them) and in the top AGREE_MEANING by similarity (compared candidates). Ranks are read before the
 * term is added, ties by doc as in fuseByRank.
 */
function withAgreement(weights: DocsWeights, lexical: Array<{ doc: number; score: number; matched: boolean }>, similarity: (doc: number) => number): Array<{ doc: number; score: number; matched: boolean }> {
  if (!weights.agree) return lexical;
  const topMeaning = topBy(lexical.filter(({ doc }) => similarity(doc) !== 0).map(({ doc }) => ({ doc, value: similarity(doc) })), AGREE_MEANING);
  if (!topMeaning.size) return lexical;
  const topWords = topBy(lexical.filter(({ matched }) => matched).map(({ doc, score }) => ({ doc, value: score })), AGREE_WORDS);
  return lexical.map((r) => (topWords.has(r.doc) && topMeaning.has(r.doc) ? { ...r, score: r.score + weights.agree } : r));
}

/** The `n` docs of highest value (ties: lower doc first, as the sorts above), in one pass: the pool is not sorted for it. */
function topBy(list: Array<{ doc: number; value: number }>, n: number): Set<number> {
  const best: Array<{ doc: number; value: number }> = [];
  const above = (a: { doc: number; value: number }, b: { doc: number; value: number }) => a.value > b.value || (a.value === b.value && a.doc < b.doc);
  for (const item of list) {
    if (best.length === n && !above(item, best[n - 1]!)) continue;
    let at = best.length;
    while (at > 0 && above(item, best[at - 1]!)) at--;
    best.splice(at, 0, item);
    if (best.length > n) best.pop();
  }
  return new Set(best.map(({ doc }) => doc));
}

export function orderPool(
  weights: DocsWeights, lexicalScores: Array<{ doc: number; score: number; matched: boolean }>, similarity: ((doc: number) => number) | undefined,
  key: (doc: number) => string, near: (a: number, b: number) => boolean, limit: number,
  guide?: { isSection: (doc: number) => boolean; uses: (doc: number) => number[] },
): Array<{ doc: number; score: number }> {
  const ranked = (similarity && weights.rrf > 0
    ? fuseByRank(weights, withAgreement(weights, lexicalScores, similarity), similarity)
    : lexicalScores.map(({ doc, score }) => ({ doc, score: score + (similarity ? weights.semantic * similarity(doc) : 0) })))
    .sort((a, b) => b.score - a.score || a.doc - b.doc);
  if (guide && weights.guideUse > 0) {
    const byDoc = new Map(ranked.map((r) => [r.doc, r]));
    const sections = ranked.filter((r) => guide.isSection(r.doc)).slice(0, weights.guideSections);
    // An item rises at most to just below the section that lends it the evidence: the guide's answer keeps its place.
    const lifted = new Map<number, number>();
    for (const section of sections) {
      for (const item of guide.uses(section.doc)) {
        const hit = byDoc.get(item);
        if (!hit) continue;
        const to = Math.min(hit.score + weights.guideUse * section.score, section.score - 1e-9);
        lifted.set(item, Math.max(lifted.get(item) ?? hit.score, to));
      }
    }
    for (const [item, score] of lifted) byDoc.get(item)!.score = score;
    ranked.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
  ranked.splice(POOL);
  // Near-duplicates (the same item twice: .d.ts and .d.cts, a generated forwarder, a legacy copy) give way to the first.
  const kept: Array<{ doc: number; score: number }> = [];
  const keys = new Set<string>();
  for (const candidate of ranked) {
    const k = key(candidate.doc);
    if (keys.has(k)) continue;
    if (kept.some((other) => near(other.doc, candidate.doc))) continue;
    keys.add(k);
    kept.push(candidate);
    if (kept.length >= limit) break;
  }
  return kept;
}
