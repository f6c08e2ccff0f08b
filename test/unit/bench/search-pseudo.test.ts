// Pseudo-queries from the catalog's own text (weak supervision for the ranking fit): the tool's name, family and
// ecosystem words are taken out, the draw is deterministic, and nothing but the given tools is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nameWords, pseudoQueries, pseudoQueryText, PSEUDO_DEFAULTS } from '../../../bench/search-pseudo.ts';
import type { ToolRecord } from '../../../src/catalog/types.ts';

function tool(ecosystem: ToolRecord['ecosystem'], name: string, description: string, popularity: number): ToolRecord {
  return {
    slug: `${ecosystem}-${name.replace(/[^a-z0-9]+/g, '-')}`, ecosystem, name, version: null, description, shortDescription: description,
    keywords: [], languages: [], frameworks: [], categories: [], license: null, homepage: null, repository: null, docsUrl: null,
    popularity, downloads: null, updatedAt: null, extra: {},
  };
}

test('a name\'s words, its scope and its Go path parts are name words', () => {
  assert.deepEqual([...nameWords('@vitest/ui')].sort(), ['ui', 'vitest', 'vitestui']);
  assert.ok(nameWords('github.com/go-chi/chi/v5').has('chi'));
  assert.ok(nameWords('pyo3-log').has('pyo3'));
});

test('the query keeps the need and drops the name, its family and the language', () => {
  assert.equal(pseudoQueryText('Serde is a framework for serializing and deserializing Rust data structures', 'serde_json'),
    'is framework for serializing and deserializing data structures');
  assert.equal(pseudoQueryText('Pydantic settings: load `BaseSettings` from environment variables in Python', 'pydantic-settings'),
    'load from environment variables in');
});

test('pseudo-queries: deterministic, train-only, answered by their own tool, popular tools drawn first', () => {
  const tools = [
    tool('crates', 'clap', 'A simple to use, efficient, and full-featured Command Line Argument Parser', 1),
    tool('crates', 'tiny-thing', 'A tiny thing nobody uses for anything at all', 0),
    tool('pypi', 'requests', 'Python HTTP for Humans.', 1),
    tool('npm', 'left-pad', 'String left pad', 1),
  ];
  const options = { ...PSEUDO_DEFAULTS, perEcosystem: 5 };
  const first = pseudoQueries(tools, options);
  assert.deepEqual(first.map((q) => q.query), pseudoQueries(tools, options).map((q) => q.query));
  // popularity 0 is never drawn; "String left pad" less the name's words is one word: too short to be a need.
  assert.deepEqual(first.map((q) => [...q.acceptable][0]), ['pypi-requests', 'crates-clap']);
  for (const q of first) {
    assert.equal(q.trainOnly, true);
    assert.equal(q.weight, PSEUDO_DEFAULTS.weight);
    assert.doesNotMatch(q.query, /clap|requests/);
  }
});
