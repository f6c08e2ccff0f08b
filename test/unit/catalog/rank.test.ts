// Query understanding and rank blending, table-driven.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, tokenize } from '../../../src/catalog/query.ts';
import { nameForms, rankCandidates, type Candidate } from '../../../src/catalog/rank.ts';
import { stem } from '../../../src/catalog/search-index.ts';
import { deriveCategories, deriveFrameworks } from '../../../src/catalog/classify.ts';

describe('parseQuery', () => {
  const cases: Array<[string, string[], string | undefined]> = [
    ['python http client with async support', ['http', 'client', 'async'], 'pypi'],
    ['HTTP router for Go', ['http', 'router'], 'go'],
    ['web framework for rust', ['web', 'framework'], 'crates'],
    ['node library to parse yaml', ['parse', 'yaml'], 'npm'],
    ['validate typescript object schemas at runtime', ['validate', 'typescript', 'object', 'schemas', 'runtime'], 'npm'],
    ['hash passwords securely', ['hash', 'passwords', 'securely'], undefined],
    ['ruby gem for background jobs', ['background', 'jobs'], 'rubygems'],
  ];
  for (const [query, terms, ecosystem] of cases) {
    it(`"${query}"`, () => {
      const parsed = parseQuery(query);
      assert.deepEqual(parsed.terms, terms);
      assert.equal(parsed.ecosystem, ecosystem);
    });
  }
  it('keeps an ecosystem word as a term when it is all the query says', () => {
    assert.deepEqual(parseQuery('rust').terms, ['rust']);
  });
});

describe('tokenize and stem', () => {
  it('splits camelCase, dotted and dashed identifiers', () => {
    assert.deepEqual(tokenize('requiredOption zod.object react-query'), ['required', 'option', 'zod', 'object', 'react', 'query']);
  });
  it('folds word forms onto one stem', () => {
    assert.equal(stem('validation'), stem('validate'));
    assert.equal(stem('validator'), stem('validate'));
    assert.equal(stem('passwords'), stem('password'));
    assert.equal(stem('hashing'), 'hash');
    assert.equal(stem('v5'), 'v5', 'leaves tokens with digits alone');
  });
});

describe('rankCandidates', () => {
  const candidate = (slug: string, over: Partial<Candidate>): Candidate => ({
    slug, name: slug.replace(/^\w+-/, ''), ecosystem: 'npm', popularity: 0.5, textScore: 10, matchedTerms: 2, categoryMatch: 0, ...over,
  });
  it('lets popularity break near-ties in text relevance', () => {
    const ranked = rankCandidates([
      candidate('npm-obscure', { textScore: 10.5, popularity: 0.1 }),
      candidate('npm-popular', { textScore: 10, popularity: 0.95 }),
    ], { termCount: 2, nameGuess: 'x' });
    assert.equal(ranked[0]?.slug, 'npm-popular');
  });
  it('puts the ecosystem the query names first', () => {
    const ranked = rankCandidates([
      candidate('npm-httpx', { popularity: 0.9 }),
      candidate('pypi-httpx', { ecosystem: 'pypi', popularity: 0.6 }),
    ], { termCount: 2, ecosystem: 'pypi', nameGuess: 'x' });
    assert.equal(ranked[0]?.slug, 'pypi-httpx');
  });
  it('boosts an exact name match', () => {
    const ranked = rankCandidates([
      candidate('npm-react-query-helpers', { textScore: 12, popularity: 0.6 }),
      candidate('npm-react-query', { name: '@tanstack/react-query', textScore: 9, popularity: 0.6 }),
    ], { termCount: 2, nameGuess: 'react-query' });
    assert.equal(ranked[0]?.slug, 'npm-react-query');
  });
  it('compares Go module paths by their last element', () => {
    assert.ok(nameForms('github.com/go-chi/chi/v5').includes('chi'));
  });
});

describe('classification', () => {
  it('derives categories from the words of real metadata', () => {
    assert.deepEqual(deriveCategories({ name: 'zod', description: 'TypeScript-first schema declaration and validation library with static type inference', keywords: ['typescript', 'schema', 'validation'] }).slice(0, 1), ['validation']);
    assert.ok(deriveCategories({ name: 'pino', description: 'super fast, all natural json logger', keywords: ['logger', 'fast'] }).includes('logging'));
    assert.deepEqual(deriveCategories({ name: 'left-pad', description: 'pads', keywords: [] }), ['utilities']);
  });
  it('reads frameworks from classifiers and peer dependencies', () => {
    assert.deepEqual(deriveFrameworks({ name: 'django-filter', description: '', keywords: [], classifiers: ['Framework :: Django', 'Framework :: Django :: 5.0'] }), ['Django']);
    assert.deepEqual(deriveFrameworks({ name: 'swr', description: '', keywords: [], dependencies: ['react'] }), ['React']);
  });
});
