// Query understanding and rank blending, table-driven.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CUE_SOURCES, parseQuery, tokenize } from '../../../src/catalog/query.ts';

// These tables drive the parser alone, without a catalog: its framework cues come from the hand lists here (the
// search ships the catalog's since round 8, tested in search-index.test.ts; the parser reads either the same way).
CUE_SOURCES.hand = true;
CUE_SOURCES.derived = false;
import { blend, FEATURES, features, nameForms, type Signals } from '../../../src/catalog/rank.ts';
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

describe('blend', () => {
  const signals = (over: Partial<Signals>): Signals => ({
    coverage: 1, nameCoverage: 0, describedCoverage: 1, keywordCoverage: 0, readmeCoverage: 0, popularity: 0.5, ecosystem: 'npm', exact: false, semantic: 0, cosine: 0, member: false,
    namesakes: 0,
    ...over,
  });
  it('does not rank by popularity alone (popularitySq pruned in round 12), but reads it beside an exact name', () => {
    const context = { single: false };
    const close = { semantic: 0.8, cosine: 0.6 };
    assert.equal(blend(signals({ ...close, popularity: 0.1 }), context), blend(signals({ ...close, popularity: 0.95 }), context));
    // Where several ecosystems have the name, the more popular within its own still comes first (exactAlonePop).
    assert.ok(blend(signals({ ...close, exact: true, popularity: 0.1 }), { single: true }) < blend(signals({ ...close, exact: true, popularity: 0.95 }), { single: true }));
  });
  it('marks the namesake that leads its own ecosystem, for a bare name several ecosystems share (round 20)', () => {
    const lead = FEATURES.indexOf('exactAloneLead');
    // A `clap` crate at the 97th percentile of crates, a `clap` npm package at the 80th: the query is the name alone.
    const context = { single: true, namedTop: 0.97 };
    assert.equal(features(signals({ exact: true, ecosystem: 'crates', popularity: 0.97 }), context)[lead], 1);
    assert.equal(features(signals({ exact: true, ecosystem: 'npm', popularity: 0.8 }), context)[lead], 0);
    // Not a name (a plugin that only contains the word), not a bare-name query, or a name outside the ecosystem asked for.
    assert.equal(features(signals({ popularity: 0.99 }), context)[lead], 0);
    assert.equal(features(signals({ exact: true, popularity: 0.97 }), { single: false, namedTop: 0.97 })[lead], 0);
    assert.equal(features(signals({ exact: true, ecosystem: 'crates', popularity: 0.97 }), { ...context, ecosystem: 'npm' as const })[lead], 0);
    // The one tool of its name leads.
    assert.equal(features(signals({ exact: true, popularity: 0.3 }), { single: true, namedTop: 0.3 })[lead], 1);
    // With the shipped weights, the leader comes first even where the word reads closer to the other's description
    // (as "clap" to npm's `clap`), when the leader is the one its ecosystem builds on (its namesakes). With the
    // eighteen-set weights, which had no such feature, the npm package came first here, by 1.5 points.
    assert.ok(blend(signals({ exact: true, ecosystem: 'crates', popularity: 0.97, semantic: 0, cosine: 0.2, namesakes: 0.57 }), context)
      > blend(signals({ exact: true, ecosystem: 'npm', popularity: 0.8, semantic: 0.7, cosine: 0.47 }), context));
  });
  it('puts the ecosystem the query names first', () => {
    const context = { single: false, ecosystem: 'pypi' as const };
    assert.ok(blend(signals({ ecosystem: 'pypi', popularity: 0.6 }), context) > blend(signals({ popularity: 1 }), context));
  });
  it('puts an exact name first for a one-word query, and favours a popular one in a longer query', () => {
    // A one-word query: both tools cover its word, the other one is the most popular and as close in meaning.
    const meaning = { semantic: 0.5, cosine: 0.5 };
    assert.ok(blend(signals({ ...meaning, exact: true, popularity: 0.2 }), { single: true })
      > blend(signals({ ...meaning, popularity: 1 }), { single: true }));
    const phrase = { single: false };
    assert.ok(blend(signals({ exact: true, popularity: 0.95 }), phrase) > blend(signals({ popularity: 0.95 }), phrase) + 0.5);
    assert.ok(blend(signals({ exact: true, popularity: 0.3 }), phrase) < blend(signals({ popularity: 0.3 }), phrase) + 0.1,
      'an obscure package named like a phrase ("http-client") gains next to nothing');
  });
  it('compares Go module paths by their last element, not npm scopes', () => {
    assert.ok(nameForms('github.com/go-chi/chi/v5').includes('chi'));
    assert.ok(!nameForms('@actions/http-client').includes('http-client'));
    assert.ok(nameForms('@tanstack/react-query').includes('tanstack-react-query'));
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
