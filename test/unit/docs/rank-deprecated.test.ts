// rankPassages and deprecated passages: the word order has deprecation in the importance prior; the meaning order takes
// WEIGHTS.deprecatedMeaning off a deprecated passage's similarity, so an item its authors retired does not come first
// on meaning alone when a current one answers nearly as well.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LexicalIndex } from '../../../src/docs/lexical.ts';
import { rankPassages, WEIGHTS, type IndexedPassage } from '../../../src/docs/rank.ts';

// Deprecated items come out of the extractors with a lower importance (0.4 lower here, as for zod/v3 in zod 4).
const passage = (id: number, symbol: string, content: string, deprecated: boolean): IndexedPassage => ({
  id, url: `u${id}`, title: symbol, headings: [symbol], content, source: 'index.d.ts', identifiers: [], symbol, importance: deprecated ? 0.4 : 0.8, internal: false, deprecated,
});

describe('rankPassages with deprecated passages', () => {
  // The question's words equally in both (the word order puts the current item first, on importance); the two
  // disagree with the meaning order only when the deprecated item is closer in meaning. Reciprocal-rank fusion
  // then ties, and a tie goes to the passage listed first: the deprecated one.
  const passages = [
    passage(0, 'axios.tokenSource', 'Cancel a request in flight with a token source.', true),
    passage(1, 'axios.abortSignal', 'Cancel a request in flight with an abort signal.', false),
  ];
  const lexical = new LexicalIndex(passages.map((p) => ({ title: p.title ?? '', trail: '', body: p.content, name: p.symbol!.split('.').pop()! })));
  // The fusion weighs the two orders equally here (rrf 1), as these cases were written for: the shipped meaning weight
  // (0.5 since round 14) settles the tie below by the word order, which is not what the deprecation weight is about.
  const rank = (similarities: number[]) => {
    const rrf = WEIGHTS.rrf;
    WEIGHTS.rrf = 1;
    try {
      return rankPassages(passages, lexical, 'cancel a request in flight', { limit: 2, identifiers: [], semantic: (doc) => similarities[doc]! }).map((p) => p.symbol);
    } finally {
      WEIGHTS.rrf = rrf;
    }
  };

  it('puts a current item above a deprecated one that is only slightly closer in meaning', () => {
    assert.deepEqual(rank([0.74, 0.70]), ['axios.abortSignal', 'axios.tokenSource']);
  });
  it('keeps a deprecated item first when it is far closer in meaning', () => {
    assert.deepEqual(rank([0.80, 0.60]), ['axios.tokenSource', 'axios.abortSignal']);
  });
  it('is what moves it: without the weight the deprecated item, closer in meaning, comes first', () => {
    const weight = WEIGHTS.deprecatedMeaning;
    WEIGHTS.deprecatedMeaning = 0;
    try {
      assert.deepEqual(rank([0.74, 0.70]), ['axios.tokenSource', 'axios.abortSignal']);
    } finally {
      WEIGHTS.deprecatedMeaning = weight;
    }
  });
});
