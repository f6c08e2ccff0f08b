// RankOptions.observe (src/docs/rank.ts): the candidate pool scripts/fit-docs-ranking.ts fits on. Its feature values must
// be the ones the word score is made of, and its `rerank` must be the ranker itself under other weights.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LexicalIndex } from '../../../src/docs/lexical.ts';
import { dedupKey, orderPool, rankPassages, WEIGHTS, WORD_FEATURES, wordScore, type FeatureRow, type IndexedPassage, type Ranked, type RankPool } from '../../../src/docs/rank.ts';

const passage = (id: number, symbol: string, content: string, extra: Partial<IndexedPassage> = {}): IndexedPassage => ({
  id, url: `u${id}`, title: symbol, headings: [symbol], content, source: 'index.d.ts', identifiers: [], symbol, importance: 0.8, internal: false, ...extra,
});
const passages = [
  passage(0, 'cache.ttl', 'Time to live of an entry in milliseconds.'),
  passage(1, 'cache.purgeStale', 'Remove every stale entry from the cache now.', { internal: true }),
  passage(2, 'cache.autopurge', 'Remove stale entries from the cache as their time to live ends.', { bare: true, centrality: 0.5 }),
  passage(3, 'other.thing', 'Nothing about it.'),
  passage(4, 'cache.prune', 'Prune stale entries:\n```js\ncache.prune()\n```', { deprecated: true }),
  { ...passage(5, '', 'Stale entries leave the cache when you call purge.'), symbol: null, title: 'Expiry' },
];
const lexical = new LexicalIndex(passages.map((p) => ({ title: p.title ?? '', trail: '', body: p.content, name: p.symbol?.split('.').pop() ?? p.title ?? '' })));
const question = 'remove stale entries from the cache';

describe('rankPassages observe', () => {
  it('hands over each candidate\'s named features, whose weighted sum orders the words-only ranking', () => {
    let seen: { rows: FeatureRow[] } | undefined;
    const ranked = rankPassages(passages, lexical, question, { limit: 6, identifiers: [], observe: (pool) => { seen = pool; } });
    assert.ok(seen);
    assert.deepEqual(seen.rows.map((r) => r.doc).sort(), [0, 1, 2, 4, 5]); // the passage sharing no word is no candidate
    const row = (doc: number) => seen!.rows.find((r) => r.doc === doc)!;
    assert.equal(row(1).features.internal, -1);
    assert.equal(row(2).features.centrality, 0.5);
    // Pruned in round 10 and round 12 (they paid nothing on held-out sets): no longer features of the word score.
    for (const gone of ['titleCoverage', 'deprecated', 'prose', 'explains', 'bare', 'member', 'field', 'moduleDoc']) assert.equal(gone in row(4).features, false, gone);
    assert.equal(row(4).features.example, 1);
    assert.equal(row(2).features.example, 0);
    assert.equal(row(5).features.section, 1);
    assert.equal(row(0).features.section, 0);
    assert.equal(Math.max(...seen.rows.map((r) => r.features.bm25)), 1); // normalised by the pool's best
    const score = (r: FeatureRow) => WORD_FEATURES.reduce((sum, f) => sum + WEIGHTS[f] * r.features[f], 0);
    for (const r of ranked) assert.ok(Math.abs(r.score - score(row(r.doc))) < 1e-9);
  });

  it('reranks the same pool with the ranker under other weights', () => {
    let rerank: ((weights: typeof WEIGHTS) => Ranked[]) | undefined;
    const semantic = (doc: number) => [0.2, 0.6, 0.5, 0, 0.1, 0.1][doc]!;
    const ranked = rankPassages(passages, lexical, question, { limit: 6, identifiers: [], semantic, observe: (pool) => { rerank = pool.rerank; } });
    assert.ok(rerank);
    assert.deepEqual(rerank(WEIGHTS).map((p) => p.doc), ranked.map((p) => p.doc));
    // All weight on the internal prior: the internal passage goes last, whatever the words say.
    const zero = Object.fromEntries(Object.keys(WEIGHTS).map((k) => [k, 0])) as typeof WEIGHTS;
    const onlyInternal = { ...WEIGHTS, ...zero, internal: 1, rrf: 0, rrfK: WEIGHTS.rrfK, duplicate: 1.01, semantic: 0 };
    assert.equal(rerank(onlyInternal).at(-1)!.doc, 1);
    const onlyMeaning = { ...WEIGHTS, ...zero, rrf: 100, rrfK: WEIGHTS.rrfK, duplicate: 1.01 };
    assert.equal(rerank(onlyMeaning)[0]!.doc, 1);
    // The evidence features are in the expression: each, weighted alone, moves its passage to the top or the bottom.
    const only = (weights: Partial<typeof WEIGHTS>) => ({ ...WEIGHTS, ...zero, rrf: 0, rrfK: WEIGHTS.rrfK, duplicate: 1.01, semantic: 0, ...weights });
    assert.equal(rerank(only({ example: 1 }))[0]!.doc, 4);
    assert.equal(rerank(only({ section: 1 }))[0]!.doc, 5);
    assert.equal(rerank(only({ internal: 1 })).at(-1)!.doc, 1);
    // The bare declaration is down in meaning only (bareMeaning off its similarity): by meaning alone it falls below
    // the passage whose similarity it beat by less than the weight.
    const meaning = { ...WEIGHTS, ...zero, rrf: 100, rrfK: WEIGHTS.rrfK, duplicate: 1.01 };
    assert.ok(rerank({ ...meaning, bareMeaning: 0 }).findIndex((p) => p.doc === 2) < rerank({ ...meaning, bareMeaning: 0.35 }).findIndex((p) => p.doc === 2));
  });

  it('a stored pool (features, keys, near-duplicate pairs) reorders through orderPool exactly as rerank does', () => {
    const twin = passage(6, 'cache.autopurgeCopy', 'Remove stale entries from the cache as their time to live ends.');
    const withTwin = [...passages, twin];
    const twinLexical = new LexicalIndex(withTwin.map((p) => ({ title: p.title ?? '', trail: '', body: p.content, name: p.symbol?.split('.').pop() ?? p.title ?? '' })));
    const semantic = (doc: number) => [0.2, 0.6, 0.5, 0, 0.1, 0.1, 0.5][doc]!;
    let pool: RankPool | undefined;
    rankPassages(withTwin, twinLexical, question, { limit: 3, identifiers: [], semantic, observe: (p) => { pool = p; } });
    assert.ok(pool);
    const docs = pool.rows.map((r) => r.doc);
    const near = pool.nearDuplicates(docs);
    assert.deepEqual(near, [[2, 6]]); // the same body under another name
    const pairs = new Set(near.map(([a, b]) => `${a} ${b}`));
    const stored = (weights: typeof WEIGHTS) => orderPool(weights, pool!.rows.map((r) => ({ doc: r.doc, score: wordScore(weights, r.features), matched: r.matched })),
      (doc) => pool!.rows.find((r) => r.doc === doc)!.similarity ?? 0, (doc) => dedupKey(withTwin[doc]!),
      (a, b) => pairs.has(`${Math.min(a, b)} ${Math.max(a, b)}`), 3).map((r) => r.doc);
    for (const weights of [WEIGHTS, { ...WEIGHTS, rrf: 0.5, example: 1, section: -0.3 }, { ...WEIGHTS, ownerCentrality: -1, name: 0 }, { ...WEIGHTS, rrf: 0, semantic: 2 }]) {
      assert.deepEqual(stored(weights), pool.rerank(weights).map((r) => r.doc));
    }
  });

  it('is off unless set: the ranking is the same with and without it', () => {
    const off = rankPassages(passages, lexical, question, { limit: 3, identifiers: [] });
    const on = rankPassages(passages, lexical, question, { limit: 3, identifiers: [], observe: () => {} });
    assert.deepEqual(on, off);
  });
});
