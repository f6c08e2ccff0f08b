// The fusion's rank constant (src/docs/rank.ts WEIGHTS.rrfK, 10 → 2 in round 15): a passage at the top of one order
// now counts for more against one that is only middling in both orders.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { orderPool, WEIGHTS } from '../../../src/docs/rank.ts';

// Ten candidates. By words: doc 0 first, doc 1 second, then 2…9. By meaning: doc 1 second and doc 0 eighth, the others
// in between. So doc 0 tops the word order alone, and doc 1 is second in both orders.
const lexical = Array.from({ length: 10 }, (_, doc) => ({ doc, score: 10 - doc, matched: true }));
const meaningOrder = [2, 1, 3, 4, 5, 6, 7, 0, 8, 9];
const similarity = (doc: number) => 1 - meaningOrder.indexOf(doc) / 20;
const first = (rrfK: number) => orderPool({ ...WEIGHTS, rrfK }, lexical, similarity, (doc) => `d${doc}`, () => false, 3)[0]!.doc;

describe('reciprocal-rank fusion constant', () => {
  it('puts the passage that tops the word order first, above one second in both orders', () => {
    assert.equal(WEIGHTS.rrfK, 2);
    assert.equal(first(WEIGHTS.rrfK), 0);
  });
  it('put the passage second in both orders first at the old constant (10)', () => {
    assert.equal(first(10), 1);
  });
});
