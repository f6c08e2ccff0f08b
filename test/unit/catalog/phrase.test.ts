// Phrase (src/catalog/phrase.ts): the query's neighbouring words standing together in a tool's description.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { phraseShare, queryPairs } from '../../../src/catalog/phrase.ts';
import { parseQuery } from '../../../src/catalog/query.ts';

const pairsOf = (query: string) => {
  const parsed = parseQuery(query);
  return queryPairs(parsed.terms, parsed.weights);
};

test('pairs are the neighbouring content words of the query, stemmed, without filler ("find") or the language', () => {
  assert.deepEqual(pairsOf('find dead code in a python project').map(({ a, b }) => `${a} ${b}`), ['dead code', 'code project']);
  assert.deepEqual(pairsOf('serde'), [], 'one word: no pair');
});

test('words standing together count; the same words scattered do not', () => {
  const pairs = pairsOf('find dead code');
  assert.equal(phraseShare(pairs, 'Find dead code'), 1);
  assert.equal(phraseShare(pairs, 'Flake8 plugin to find dead and commented out code'), 0, 'dead … code, three tokens apart');
  assert.equal(phraseShare(pairs, 'Code is never dead; we find it'), 0);
});

test('one token may stand between them, in either order', () => {
  const pairs = pairsOf('promise timeout');
  assert.equal(phraseShare(pairs, 'Timeout a promise after a specified amount of time'), 1, '"a" is dropped as a one-letter token');
  assert.equal(phraseShare(pairs, 'Simple timeouts for promises'), 1, 'stemmed, one word between');
  assert.equal(phraseShare(pairs, 'A promise wrapper for setTimeout'), 0, 'settimeout is another word');
});

test('a pair weighs the lesser of its words: an expansion or cue word counts less', () => {
  const weights = new Map([['rails', 0.5], ['auth', 1], ['token', 1]]);
  const pairs = queryPairs(['rails', 'auth', 'token'], weights);
  assert.deepEqual(pairs.map((p) => p.weight), [0.5, 1]);
  assert.equal(phraseShare(pairs, 'auth token helpers'), 1 / 1.5);
});
