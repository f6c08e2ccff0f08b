// Round 20 (d3): WEIGHTS.agree — a candidate that both orders find good (top AGREE_MEANING by meaning, top AGREE_WORDS by
// words) gains in the word order before the fusion, so the answer at word rank 4–10 and meaning rank 1 is not left
// under passages only the words put first.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AGREE_MEANING, AGREE_WORDS, orderPool, WEIGHTS } from '../../../src/docs/rank.ts';

// Twelve candidates. By words: doc 0 first, then 1 … 11 (doc 7 eighth, docs 10 and 11 eleventh and twelfth). By meaning:
// doc 7 first, docs 11 and 10 second and third, doc 2 fifth, docs 1 and 0 last.
const lexical = Array.from({ length: 12 }, (_, doc) => ({ doc, score: 1 - 0.02 * doc, matched: true }));
const meaningOrder = [7, 11, 10, 9, 2, 8, 6, 5, 4, 3, 1, 0];
const similarity = (doc: number) => 0.9 - meaningOrder.indexOf(doc) / 100;
const top3 = (agree: number) => orderPool({ ...WEIGHTS, agree }, lexical, similarity, (doc) => `d${doc}`, () => false, 3).map((r) => r.doc);

describe('agreement of the word and the meaning order', () => {
  it('puts first the passage eighth by words and first by meaning', () => {
    assert.equal(AGREE_MEANING, 3);
    assert.equal(AGREE_WORDS, 10);
    assert.equal(WEIGHTS.agree, 0.2);
    assert.equal(top3(WEIGHTS.agree)[0], 7);
  });
  it('left it fourth without the term (the fusion alone: docs 0, 1 and 2 above it)', () => {
    assert.deepEqual(top3(0), [0, 1, 2]);
  });
  it('lifts no passage beyond the word top 10, however high by meaning', () => {
    const top = top3(10);
    assert.equal(top[0], 7);
    assert.ok(!top.includes(10) && !top.includes(11), `docs 10 and 11 are in the meaning top 3 but not the word top 10: ${top.join(' ')}`);
  });
  it('changes nothing without meaning', () => {
    assert.deepEqual(orderPool(WEIGHTS, lexical, undefined, (doc) => `d${doc}`, () => false, 3).map((r) => r.doc), [0, 1, 2]);
  });
});
